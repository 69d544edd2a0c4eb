import type { Template, TemplateStatus } from '../domain/template.ts';
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
}
