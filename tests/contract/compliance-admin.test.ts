import { describeComplianceAdminContract } from './compliance-admin.contract.ts';
import { storageImplementations } from './storage-implementations.ts';

for (const implementation of await storageImplementations()) describeComplianceAdminContract(implementation.name, implementation.make);
