import type { Template, TemplateStatus } from '../../core/domain/template.ts';
import type { TemplateVariant } from '../../core/domain/template-variant.ts';
import type { MetaTemplateCheck, MetaTemplateMapping } from '../../core/domain/whatsapp-template.ts';
import type { TemplateRepository } from '../../core/ports/template-repository.ts';
import { copy, type MemoryState } from './memory-state.ts';

export class InMemoryTemplateRepository implements TemplateRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async insert(template: Template): Promise<void> { this.#state.templates.set(template.id, copy(template)); }

  async findById(organizationId: string, id: string): Promise<Template | null> {
    const t = this.#state.templates.get(id);
    return t && t.organizationId === organizationId ? copy(t) : null;
  }

  async list(organizationId: string, limit: number): Promise<Template[]> {
    return [...this.#state.templates.values()].filter((t) => t.organizationId === organizationId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1)).slice(0, limit).map(copy);
  }

  async setMetaTemplate(organizationId: string, id: string, mapping: MetaTemplateMapping | null, now: Date): Promise<Template | null> {
    const t = this.#state.templates.get(id);
    if (!t || t.organizationId !== organizationId) return null;
    Object.assign(t, { metaTemplate: mapping ? copy(mapping) : null, metaCheck: null, updatedAt: now });
    return copy(t);
  }

  async setMetaCheck(organizationId: string, id: string, check: MetaTemplateCheck): Promise<Template | null> {
    const t = this.#state.templates.get(id);
    if (!t || t.organizationId !== organizationId) return null;
    Object.assign(t, { metaCheck: copy(check) });
    return copy(t);
  }

  async setStatus(organizationId: string, id: string, status: TemplateStatus, comment: string | null, now: Date): Promise<Template | null> {
    const t = this.#state.templates.get(id);
    if (!t || t.organizationId !== organizationId) return null;
    Object.assign(t, { status, reviewComment: comment, updatedAt: now });
    return copy(t);
  }

  async putVariant(organizationId: string, id: string, variant: TemplateVariant, now: Date): Promise<Template | null> {
    const t = this.#state.templates.get(id);
    if (!t || t.organizationId !== organizationId) return null;
    const others = (t.variants ?? []).filter((v) => v.locale.toLowerCase() !== variant.locale.toLowerCase());
    Object.assign(t, { variants: [...others, copy(variant)], updatedAt: now });
    return copy(t);
  }

  async removeVariant(organizationId: string, id: string, locale: string, now: Date): Promise<Template | null> {
    const t = this.#state.templates.get(id);
    if (!t || t.organizationId !== organizationId) return null;
    const others = (t.variants ?? []).filter((v) => v.locale.toLowerCase() !== locale.toLowerCase());
    if (others.length === (t.variants ?? []).length) return null;
    Object.assign(t, { variants: others, updatedAt: now });
    return copy(t);
  }

  async setVariantStatus(organizationId: string, id: string, locale: string, approvalRequestId: string, status: TemplateStatus, comment: string | null, now: Date): Promise<Template | null> {
    const t = this.#state.templates.get(id);
    const variant = t?.organizationId === organizationId ? t.variants?.find((v) => v.locale.toLowerCase() === locale.toLowerCase()) : undefined;
    if (!t || !variant || variant.approvalRequestId !== approvalRequestId) return null;
    Object.assign(variant, { status, reviewComment: comment, updatedAt: now });
    return copy(t);
  }
}
