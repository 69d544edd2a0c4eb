import { describeWalletRepositoryContract } from './wallet-repository.contract.ts';
import { storageImplementations } from './storage-implementations.ts';

for (const implementation of await storageImplementations()) describeWalletRepositoryContract(implementation.name, implementation.make);
