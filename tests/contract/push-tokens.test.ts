import { describePushTokensContract } from './push-tokens.contract.ts';
import { storageImplementations } from './storage-implementations.ts';

for (const implementation of await storageImplementations()) describePushTokensContract(implementation.name, implementation.make);
