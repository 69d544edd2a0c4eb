import { describeMessageDeliveryContract } from './message-delivery.contract.ts';
import { storageImplementations } from './storage-implementations.ts';

for (const implementation of await storageImplementations()) describeMessageDeliveryContract(implementation.name, implementation.make);
