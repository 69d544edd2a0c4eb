import { describeConsentRepositoriesContract } from './consent-repositories.contract.ts';
import { storageImplementations } from './storage-implementations.ts';

for (const implementation of await storageImplementations()) describeConsentRepositoriesContract(implementation.name, implementation.make);
