import { AppError } from '../../errors.ts';
import { templateView } from '../../domain/template.ts';
import { checkMapping } from '../../domain/whatsapp-template.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';
import type { WhatsappTemplateCatalog } from '../../ports/whatsapp-template-catalog.ts';
import type { TemplateView } from './list-templates.ts';

export interface CheckMetaTemplateDeps {
  storage: Pick<Storage, 'templates'>;
  catalog: WhatsappTemplateCatalog;
  clock: Clock;
}

/**
 * POST /templates/{id}/whatsapp-check (docs/whatsapp-templates.md): reads the Meta account's templates
 * and records what Meta says of the template's `metaTemplate`: APPROVED, PENDING, REJECTED, PAUSED,
 * DISABLED, MISSING (no template of that name and language) or MISMATCH (parameter counts differ).
 * Only an APPROVED mapping is sent outside the 24-hour window. Errors: NOT_FOUND, VALIDATION_ERROR
 * (not a WHATSAPP template, or no metaTemplate), PROVIDER_UNAVAILABLE (no Meta account, Meta unreachable).
 */
export class CheckMetaTemplate {
  readonly #deps: CheckMetaTemplateDeps;
  constructor(deps: CheckMetaTemplateDeps) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, id: string): Promise<TemplateView> {
    const { storage, catalog, clock } = this.#deps;
    const template = id.length > 0 && id.length <= 64 ? await storage.templates.findById(scope.organizationId, id) : null;
    if (!template) throw new AppError('NOT_FOUND', 'Template not found');
    if (template.channel !== 'WHATSAPP' || !template.metaTemplate) {
      const message = template.channel !== 'WHATSAPP' ? 'is only for WHATSAPP templates' : 'the template has no Meta template to check: set one first';
      throw new AppError('VALIDATION_ERROR', `metaTemplate: ${message}`, { fieldErrors: { metaTemplate: [message] }, formErrors: [] });
    }
    const listings = await catalog.templatesFor(scope.organizationId);
    const checked = await storage.templates.setMetaCheck(scope.organizationId, template.id, checkMapping(template.metaTemplate, listings, clock.now()));
    if (!checked) throw new AppError('NOT_FOUND', 'Template not found');
    return templateView(checked);
  }
}
