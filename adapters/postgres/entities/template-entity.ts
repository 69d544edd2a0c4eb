import type { MetaTemplateCheck, MetaTemplateMapping } from '../../../core/domain/whatsapp-template.ts';
import { defineEntity, p } from '@mikro-orm/core';

export const TemplateEntity = defineEntity({
  name: 'Template',
  tableName: 'templates',
  properties: {
    id: p.string().primary(),
    organizationId: p.string(),
    name: p.string(),
    channel: p.string(),
    body: p.text(),
    subject: p.string().nullable(),
    countryCode: p.string(),
    language: p.string(),
    category: p.string(),
    variables: p.json<string[]>(),
    status: p.string(),
    reviewComment: p.string().nullable(),
    createdByUserId: p.string().nullable(),
    metaTemplate: p.json<MetaTemplateMapping>().nullable(),
    metaCheck: p.json<StoredMetaCheck>().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

/** A MetaTemplateCheck as stored (jsonb: the date as an ISO string). */
export type StoredMetaCheck = Omit<MetaTemplateCheck, 'checkedAt'> & { checkedAt: string };

export const ApprovalRequestEntity = defineEntity({
  name: 'ApprovalRequest',
  tableName: 'approval_requests',
  properties: {
    id: p.string().primary(),
    organizationId: p.string(),
    kind: p.string(),
    subjectId: p.string(),
    status: p.string(),
    content: p.json<Record<string, unknown>>(),
    requestedByUserId: p.string().nullable(),
    decidedByUserId: p.string().nullable(),
    decidedAt: p.datetime().nullable(),
    comment: p.string().nullable(),
    createdAt: p.datetime(),
  },
});
