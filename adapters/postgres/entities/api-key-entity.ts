import { defineEntity, p } from '@mikro-orm/core';

export const ApiKeyEntity = defineEntity({
  name: 'ApiKey',
  tableName: 'api_keys',
  properties: {
    id: p.string().primary(),
    organizationId: p.string(),
    name: p.string(),
    prefix: p.string(),
    keyHash: p.string(),
    isSandbox: p.boolean(),
    scopes: p.json<string[]>(),
    expiresAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
    lastUsedAt: p.datetime().nullable(),
    lastUsedIp: p.string().nullable(),
    allowedCidrs: p.json<string[]>(),
    createdByUserId: p.string(),
    createdAt: p.datetime(),
  },
});
