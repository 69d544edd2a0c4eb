import { describeTwoFactorContracts } from './two-factor-repositories.contract.ts';
import { storageImplementations } from './storage-implementations.ts';

for (const implementation of await storageImplementations()) describeTwoFactorContracts(implementation.name, implementation.make);
