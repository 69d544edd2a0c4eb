import { describeEventRepositoriesContract } from './event-repositories.contract.ts';
import { storageImplementations } from './storage-implementations.ts';

for (const implementation of await storageImplementations()) describeEventRepositoriesContract(implementation.name, implementation.make);
