import { describeMembershipRepositoryContract } from './membership-repository.contract.ts';
import { storageImplementations } from './storage-implementations.ts';

for (const implementation of await storageImplementations()) describeMembershipRepositoryContract(implementation.name, implementation.make);
