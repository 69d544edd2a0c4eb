import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import { templateView } from '../../domain/template.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';
import { checkedMapping, MetaTemplateInput } from './meta-template-input.ts';
import type { TemplateView } from './list-templates.ts';

export const SetMetaTemplateInput = v.object({ metaTemplate: v.nullable(MetaTemplateInput) });

/**
 * PUT /templates/{id}/meta-template (docs/whatsapp-templates.md): sets (or with null removes) the Meta
 * template a WHATSAPP template maps to. The last check is cleared: the new mapping is sent outside
 * the 24-hour window only once a check finds it APPROVED. Errors: NOT_FOUND, VALIDATION_ERROR.
 */
export class SetMetaTemplate {
  readonly #deps: { storage: Pick<Storage, 'templates'>; clock: Clock };
  constructor(deps: { storage: Pick<Storage, 'templates'>; clock: Clock }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, id: string, raw: unknown): Promise<TemplateView> {
    const input = parseInput(SetMetaTemplateInput, raw);
    const { storage, clock } = this.#deps;
    const template = id.length > 0 && id.length <= 64 ? await storage.templates.findById(scope.organizationId, id) : null;
    if (!template) throw new AppError('NOT_FOUND', 'Template not found');
    const mapping = input.metaTemplate ? checkedMapping(input.metaTemplate, template.channel, template.variables) : null;
    if (!mapping && template.channel !== 'WHATSAPP') throw new AppError('VALIDATION_ERROR', 'metaTemplate: is only for WHATSAPP templates', { fieldErrors: { metaTemplate: ['is only for WHATSAPP templates'] }, formErrors: [] });
    const updated = await storage.templates.setMetaTemplate(scope.organizationId, template.id, mapping, clock.now());
    if (!updated) throw new AppError('NOT_FOUND', 'Template not found');
    return templateView(updated);
  }
}
