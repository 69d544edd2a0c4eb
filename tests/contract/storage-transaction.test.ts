import { describeStorageTransactionContract } from './storage-transaction.contract.ts';
import { storageImplementations } from './storage-implementations.ts';

for (const implementation of await storageImplementations()) describeStorageTransactionContract(implementation.name, implementation.make);
