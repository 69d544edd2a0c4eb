import { describePasswordResetRepositoryContract } from './password-reset-repository.contract.ts';
import { storageImplementations } from './storage-implementations.ts';

for (const implementation of await storageImplementations()) describePasswordResetRepositoryContract(implementation.name, implementation.make);
