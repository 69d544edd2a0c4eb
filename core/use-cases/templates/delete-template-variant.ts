import { AppError } from '../../errors.ts';
import { normaliseLocale } from '../../domain/locale.ts';
import { templateView } from '../../domain/template.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';

/**
 * DELETE /templates/{id}/variants/{locale}: removes a template's variant; its recipients get the next
 * locale of their chain (docs/templates.md, "Locales"). A pending approval request of it stays listed
 * for administrators, and deciding it changes nothing. Errors: NOT_FOUND (template or variant).
 */
export class DeleteTemplateVariant {
  readonly #deps: { storage: Pick<Storage, 'templates'>; clock: Clock };
  constructor(deps: { storage: Pick<Storage, 'templates'>; clock: Clock }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, id: string, rawLocale: string) {
    const locale = normaliseLocale(rawLocale);
    const updated = locale && id.length > 0 && id.length <= 64
      ? await this.#deps.storage.templates.removeVariant(scope.organizationId, id, locale, this.#deps.clock.now()) : null;
    if (!updated) throw new AppError('NOT_FOUND', 'Template or variant not found');
    return templateView(updated);
  }
}
