import { describeSendAcceptanceContract } from './send-acceptance.contract.ts';
import { storageImplementations } from './storage-implementations.ts';

for (const implementation of await storageImplementations()) describeSendAcceptanceContract(implementation.name, implementation.make);
