import { describeDeliveryLogReadsContract } from './delivery-log-reads.contract.ts';
import { storageImplementations } from './storage-implementations.ts';

for (const implementation of await storageImplementations()) describeDeliveryLogReadsContract(implementation.name, implementation.make);
