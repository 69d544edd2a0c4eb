import type { TemplateVariant } from '../../../core/domain/template-variant.ts';
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
    /** Locale variants keyed by the lowercased locale (migration 0062). */
    variants: p.json<Record<string, StoredVariant>>(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

/** A TemplateVariant as stored (jsonb: dates as ISO strings). */
export type StoredVariant = Omit<TemplateVariant, 'createdAt' | 'updatedAt'> & { createdAt: string; updatedAt: string };

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
