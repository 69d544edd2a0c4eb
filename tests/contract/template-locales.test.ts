import { describeTemplateLocalesContract } from './template-locales.contract.ts';
import { storageImplementations } from './storage-implementations.ts';

for (const implementation of await storageImplementations()) describeTemplateLocalesContract(implementation.name, implementation.make);
