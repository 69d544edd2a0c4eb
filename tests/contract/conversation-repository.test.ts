import { describeConversationRepositoryContract } from './conversation-repository.contract.ts';
import { storageImplementations } from './storage-implementations.ts';

for (const implementation of await storageImplementations()) describeConversationRepositoryContract(implementation.name, implementation.make);
