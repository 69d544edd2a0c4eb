import { describeTrackedLinksContract } from './tracked-links.contract.ts';
import { storageImplementations } from './storage-implementations.ts';

for (const implementation of await storageImplementations()) describeTrackedLinksContract(implementation.name, implementation.make);
