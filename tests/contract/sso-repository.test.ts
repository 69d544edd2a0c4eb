import { describeSsoRepositoryContract } from './sso-repository.contract.ts';
import { storageImplementations } from './storage-implementations.ts';

for (const implementation of await storageImplementations()) describeSsoRepositoryContract(implementation.name, implementation.make);
