import { defineEntity, p } from '@mikro-orm/core';

export const OrganizationEntity = defineEntity({
  name: 'Organization',
  tableName: 'organizations',
  properties: {
    id: p.string().primary(),
    name: p.string(),
    industry: p.string().nullable(),
    businessPhone: p.string().nullable(),
    businessEmail: p.string().nullable(),
    timezone: p.string(),
    defaultLanguage: p.string(),
    website: p.string().nullable(),
    onboardingComplete: p.boolean(),
    complianceAcknowledged: p.boolean(),
    monthlyVolume: p.integer().nullable(),
    preferredChannels: p.json<string[]>(),
    paused: p.boolean(),
    defaultSenderId: p.string().nullable(),
    quietHours: p.json<{ start: string; end: string }>().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

export const MembershipEntity = defineEntity({
  name: 'Membership',
  tableName: 'memberships',
  properties: {
    id: p.string().primary(),
    organizationId: p.string(),
    userId: p.string(),
    role: p.string(),
    createdAt: p.datetime(),
  },
});
