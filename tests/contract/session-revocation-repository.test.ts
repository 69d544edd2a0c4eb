import { describeSessionRevocationContract } from './session-revocation-repository.contract.ts';
import { storageImplementations } from './storage-implementations.ts';

for (const implementation of await storageImplementations()) describeSessionRevocationContract(implementation.name, implementation.make);
