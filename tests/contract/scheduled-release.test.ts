import { describeScheduledReleaseContract } from './scheduled-release.contract.ts';
import { storageImplementations } from './storage-implementations.ts';

for (const implementation of await storageImplementations()) describeScheduledReleaseContract(implementation.name, implementation.make);
