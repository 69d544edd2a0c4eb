import { describeTemplateMetaMappingContract } from './template-meta-mapping.contract.ts';
import { storageImplementations } from './storage-implementations.ts';

for (const implementation of await storageImplementations()) describeTemplateMetaMappingContract(implementation.name, implementation.make);
