import { describeKnownLoginClientContract } from './known-login-client-repository.contract.ts';
import { storageImplementations } from './storage-implementations.ts';

for (const implementation of await storageImplementations()) describeKnownLoginClientContract(implementation.name, implementation.make);
