import { describeVerificationRepositoryContract } from './verification-repository.contract.ts';
import { storageImplementations } from './storage-implementations.ts';

for (const implementation of await storageImplementations()) describeVerificationRepositoryContract(implementation.name, implementation.make);
