import { defineEntity, p } from '@mikro-orm/core';

export const PasswordResetEntity = defineEntity({
  name: 'PasswordReset',
  tableName: 'password_resets',
  properties: {
    id: p.string().primary(),
    userId: p.string(),
    tokenHash: p.string(),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
  },
});
