import { describeSenderIdRepositoryContract } from './sender-id-repository.contract.ts';
import { storageImplementations } from './storage-implementations.ts';

for (const implementation of await storageImplementations()) describeSenderIdRepositoryContract(implementation.name, implementation.make);
