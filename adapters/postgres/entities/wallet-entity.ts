import { defineEntity, p } from '@mikro-orm/core';

export const WalletEntity = defineEntity({
  name: 'Wallet',
  tableName: 'wallets',
  properties: {
    organizationId: p.string().primary(),
    balance: p.bigint('number'),
    currency: p.string(),
    updatedAt: p.datetime(),
  },
});

export const LedgerEntryEntity = defineEntity({
  name: 'LedgerEntry',
  tableName: 'ledger_entries',
  properties: {
    id: p.string().primary(),
    organizationId: p.string(),
    amount: p.bigint('number'),
    balanceAfter: p.bigint('number'),
    kind: p.string(),
    reference: p.string(),
    description: p.string(),
    createdAt: p.datetime(),
  },
});
