import { describeWebhookRepositoriesContract } from './webhook-repositories.contract.ts';
import { storageImplementations } from './storage-implementations.ts';

for (const implementation of await storageImplementations()) describeWebhookRepositoriesContract(implementation.name, implementation.make);
