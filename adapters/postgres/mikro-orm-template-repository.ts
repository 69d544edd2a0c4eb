import type { InferEntity } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import type { TemplateCategory, TemplateChannel } from '../../core/domain/channel.ts';
import type { Template, TemplateStatus } from '../../core/domain/template.ts';
import type { TemplateRepository } from '../../core/ports/template-repository.ts';
import type { MetaTemplateCheck, MetaTemplateMapping } from '../../core/domain/whatsapp-template.ts';
import type { TemplateVariant } from '../../core/domain/template-variant.ts';
import { TemplateEntity, type StoredMetaCheck, type StoredVariant } from './entities/template-entity.ts';
import { sqlRows } from './sql-rows.ts';

type Row = InferEntity<typeof TemplateEntity>;

export class MikroOrmTemplateRepository implements TemplateRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async insert(template: Template): Promise<void> {
    await this.#em.insert(TemplateEntity, { ...template, metaTemplate: template.metaTemplate ?? null, metaCheck: storedCheck(template.metaCheck ?? null),
      variants: Object.fromEntries((template.variants ?? []).map((v) => [v.locale.toLowerCase(), storedVariant(v)])) });
  }

  async findById(organizationId: string, id: string): Promise<Template | null> {
    const row = await this.#em.findOne(TemplateEntity, { organizationId, id }, { disableIdentityMap: true });
    return row ? toTemplate(row) : null;
  }

  async list(organizationId: string, limit: number): Promise<Template[]> {
    const rows = await this.#em.find(TemplateEntity, { organizationId }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit, disableIdentityMap: true });
    return rows.map(toTemplate);
  }

  async setMetaTemplate(organizationId: string, id: string, mapping: MetaTemplateMapping | null, now: Date): Promise<Template | null> {
    const n = await this.#em.nativeUpdate(TemplateEntity, { organizationId, id }, { metaTemplate: mapping, metaCheck: null, updatedAt: now });
    return n === 1 ? this.findById(organizationId, id) : null;
  }

  async setMetaCheck(organizationId: string, id: string, check: MetaTemplateCheck): Promise<Template | null> {
    const n = await this.#em.nativeUpdate(TemplateEntity, { organizationId, id }, { metaCheck: storedCheck(check) });
    return n === 1 ? this.findById(organizationId, id) : null;
  }

  async setStatus(organizationId: string, id: string, status: TemplateStatus, comment: string | null, now: Date): Promise<Template | null> {
    const n = await this.#em.nativeUpdate(TemplateEntity, { organizationId, id }, { status, reviewComment: comment, updatedAt: now });
    return n === 1 ? this.findById(organizationId, id) : null;
  }

  /** One statement: `variants || {locale: variant}` replaces only this locale's entry. */
  async putVariant(organizationId: string, id: string, variant: TemplateVariant, now: Date): Promise<Template | null> {
    const rows = await sqlRows<{ id: string }>(this.#em, `update templates set variants = variants || jsonb_build_object($3::text, $4::jsonb), updated_at = $5
      where organization_id = $1 and id = $2 returning id`, [organizationId, id, variant.locale.toLowerCase(), JSON.stringify(storedVariant(variant)), now]);
    return rows.length === 1 ? this.findById(organizationId, id) : null;
  }

  async removeVariant(organizationId: string, id: string, locale: string, now: Date): Promise<Template | null> {
    const rows = await sqlRows<{ id: string }>(this.#em, `update templates set variants = variants - $3::text, updated_at = $4
      where organization_id = $1 and id = $2 and variants -> $3::text is not null returning id`, [organizationId, id, locale.toLowerCase(), now]);
    return rows.length === 1 ? this.findById(organizationId, id) : null;
  }

  async setVariantStatus(organizationId: string, id: string, locale: string, approvalRequestId: string, status: TemplateStatus, comment: string | null, now: Date): Promise<Template | null> {
    const rows = await sqlRows<{ id: string }>(this.#em, `update templates set variants = jsonb_set(variants, array[$3::text],
        variants -> $3::text || jsonb_build_object('status', $5::text, 'reviewComment', $6::text, 'updatedAt', $7::text)), updated_at = $8
      where organization_id = $1 and id = $2 and variants -> $3::text ->> 'approvalRequestId' = $4 returning id`,
    [organizationId, id, locale.toLowerCase(), approvalRequestId, status, comment, now.toISOString(), now]);
    return rows.length === 1 ? this.findById(organizationId, id) : null;
  }
}

function storedVariant(v: TemplateVariant): StoredVariant {
  return { ...v, createdAt: v.createdAt.toISOString(), updatedAt: v.updatedAt.toISOString() };
}

function storedCheck(check: MetaTemplateCheck | null): StoredMetaCheck | null {
  return check ? { ...check, checkedAt: check.checkedAt.toISOString() } : null;
}

function toTemplate(row: Row): Template {
  return {
    id: row.id, organizationId: row.organizationId, name: row.name, channel: row.channel as TemplateChannel, body: row.body,
    subject: row.subject ?? null, countryCode: row.countryCode, language: row.language, category: row.category as TemplateCategory,
    variables: row.variables, status: row.status as TemplateStatus, reviewComment: row.reviewComment ?? null,
    createdByUserId: row.createdByUserId ?? null, createdAt: row.createdAt, updatedAt: row.updatedAt,
    metaTemplate: row.metaTemplate ?? null, metaCheck: row.metaCheck ? { ...row.metaCheck, checkedAt: new Date(row.metaCheck.checkedAt) } : null,
    variants: Object.values(row.variants ?? {}).map((v) => ({ ...v, createdAt: new Date(v.createdAt), updatedAt: new Date(v.updatedAt) })),
  };
}
