import type { Template, TemplateStatus } from '../domain/template.ts';
import type { TemplateVariant } from '../domain/template-variant.ts';
import type { MetaTemplateCheck, MetaTemplateMapping } from '../domain/whatsapp-template.ts';

/** Message templates, tenant-scoped. */
export interface TemplateRepository {
  insert(template: Template): Promise<void>;
  findById(organizationId: string, id: string): Promise<Template | null>;
  /** Newest first, at most `limit`. */
  list(organizationId: string, limit: number): Promise<Template[]>;
  /** Sets or clears a WHATSAPP template's Meta template; the last check is cleared with it (it was of the old mapping). */
  setMetaTemplate(organizationId: string, id: string, mapping: MetaTemplateMapping | null, now: Date): Promise<Template | null>;
  /** Records a check of the Meta template against the Meta account (docs/whatsapp-templates.md). */
  setMetaCheck(organizationId: string, id: string, check: MetaTemplateCheck): Promise<Template | null>;
  setStatus(organizationId: string, id: string, status: TemplateStatus, comment: string | null, now: Date): Promise<Template | null>;
  /**
   * Sets the variant of `variant.locale` (locales compare case-insensitively: an existing one is replaced,
   * one statement, so concurrent writers of other locales never lose each other's variants). Null when the
   * template does not exist in the organization.
   */
  putVariant(organizationId: string, id: string, variant: TemplateVariant, now: Date): Promise<Template | null>;
  /** Removes the variant of `locale`; null when the template or the variant does not exist. */
  removeVariant(organizationId: string, id: string, locale: string, now: Date): Promise<Template | null>;
  /**
   * An administrator's decision on a variant's approval request: moves the variant of `locale` to `status`
   * only while its `approvalRequestId` is still `approvalRequestId` (a text replaced since waits for its own
   * request). Null when nothing moved.
   */
  setVariantStatus(organizationId: string, id: string, locale: string, approvalRequestId: string, status: TemplateStatus, comment: string | null, now: Date): Promise<Template | null>;
}
