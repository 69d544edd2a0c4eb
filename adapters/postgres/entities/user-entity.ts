import { defineEntity, p } from '@mikro-orm/core';

export const UserEntity = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    id: p.string().primary(),
    email: p.string(),
    passwordHash: p.string(),
    firstName: p.string(),
    lastName: p.string(),
    platformRole: p.string().nullable(),
    createdAt: p.datetime(),
  },
});
