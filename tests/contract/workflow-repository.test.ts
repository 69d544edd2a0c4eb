import { describeWorkflowRepositoryContract } from './workflow-repository.contract.ts';
import { storageImplementations } from './storage-implementations.ts';

for (const implementation of await storageImplementations()) describeWorkflowRepositoryContract(implementation.name, implementation.make);
