import { describeOrganizationRepositoryContract } from './organization-repository.contract.ts';
import { storageImplementations } from './storage-implementations.ts';

for (const implementation of await storageImplementations()) describeOrganizationRepositoryContract(implementation.name, implementation.make);
