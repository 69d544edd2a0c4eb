import { describeAnalyticsRepositoryContract } from './analytics-repository.contract.ts';
import { storageImplementations } from './storage-implementations.ts';

for (const implementation of await storageImplementations()) describeAnalyticsRepositoryContract(implementation.name, implementation.make);
