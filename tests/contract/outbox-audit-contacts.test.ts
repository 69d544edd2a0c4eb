import { describeOutboxAuditContactsContract } from './outbox-audit-contacts.contract.ts';
import { storageImplementations } from './storage-implementations.ts';

for (const implementation of await storageImplementations()) describeOutboxAuditContactsContract(implementation.name, implementation.make);
