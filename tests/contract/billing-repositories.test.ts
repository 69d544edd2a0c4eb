import { describeBillingRepositoriesContract } from './billing-repositories.contract.ts';
import { storageImplementations } from './storage-implementations.ts';

for (const implementation of await storageImplementations()) describeBillingRepositoriesContract(implementation.name, implementation.make);
