import { describeAudienceContract } from './audience.contract.ts';
import { storageImplementations } from './storage-implementations.ts';

for (const implementation of await storageImplementations()) describeAudienceContract(implementation.name, implementation.make);
