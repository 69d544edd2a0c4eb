import { describeUserRepositoryContract } from './user-repository.contract.ts';
import { storageImplementations } from './storage-implementations.ts';

for (const implementation of await storageImplementations()) describeUserRepositoryContract(implementation.name, implementation.make);
