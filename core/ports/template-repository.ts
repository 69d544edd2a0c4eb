import type { Template, TemplateStatus } from '../domain/template.ts';

/** Message templates, tenant-scoped. */
export interface TemplateRepository {
  insert(template: Template): Promise<void>;
  findById(organizationId: string, id: string): Promise<Template | null>;
  /** Newest first, at most `limit`. */
  list(organizationId: string, limit: number): Promise<Template[]>;
  setStatus(organizationId: string, id: string, status: TemplateStatus, comment: string | null, now: Date): Promise<Template | null>;
}
