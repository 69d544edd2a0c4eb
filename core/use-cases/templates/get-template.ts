import { AppError } from '../../errors.ts';
import { templateView } from '../../domain/template.ts';
import type { Storage } from '../../ports/storage.ts';
import type { TemplateView } from './list-templates.ts';

/** GET /templates/{id}: one template of the caller's organization (another organization's id -> NOT_FOUND). */
export class GetTemplate {
  readonly #deps: { storage: Pick<Storage, 'templates'> };
  constructor(deps: { storage: Pick<Storage, 'templates'> }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, id: string): Promise<TemplateView> {
    const template = id.length > 0 && id.length <= 64 ? await this.#deps.storage.templates.findById(scope.organizationId, id) : null;
    if (!template) throw new AppError('NOT_FOUND', 'Template not found');
    return templateView(template);
  }
}
