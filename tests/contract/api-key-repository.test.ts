import { describeApiKeyRepositoryContract } from './api-key-repository.contract.ts';
import { storageImplementations } from './storage-implementations.ts';

for (const implementation of await storageImplementations()) describeApiKeyRepositoryContract(implementation.name, implementation.make);
