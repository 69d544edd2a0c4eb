import { defineEntity, p } from '@mikro-orm/core';

export const SuppressionEntity = defineEntity({
  name: 'Suppression',
  tableName: 'suppressions',
  properties: {
    id: p.string().primary(),
    organizationId: p.string(),
    phone: p.string().nullable(),
    email: p.string().nullable(),
    channel: p.string().nullable(),
    category: p.string().nullable(),
    reason: p.string().nullable(),
    createdAt: p.datetime(),
  },
});
