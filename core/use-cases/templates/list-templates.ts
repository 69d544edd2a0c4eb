import * as v from 'valibot';
import { parseInput } from '../../validation.ts';
import { TEMPLATE_CHANNELS } from '../../domain/channel.ts';
import { templateView, type TemplateStatus } from '../../domain/template.ts';
import type { Storage } from '../../ports/storage.ts';

/** Upper bound on templates listed (and on the newest templates a filter looks through). */
export const MAX_TEMPLATES_LISTED = 200;

export const TEMPLATE_STATUSES = ['APPROVED', 'PENDING_APPROVAL', 'REJECTED'] as const satisfies readonly TemplateStatus[];

export const ListTemplatesInput = v.object({
  channel: v.optional(v.pipe(
    v.picklist(TEMPLATE_CHANNELS, `must be one of ${TEMPLATE_CHANNELS.join(', ')}`), v.description('Only templates of this channel'))),
  status: v.optional(v.pipe(
    v.picklist(TEMPLATE_STATUSES, `must be one of ${TEMPLATE_STATUSES.join(', ')}`), v.description('Only templates in this status'))),
});

export type TemplateView = ReturnType<typeof templateView>;

/**
 * GET /templates: the organization's templates, newest first, at most {@link MAX_TEMPLATES_LISTED}.
 * `channel` and `status` filter those newest templates (the repository port has no filter yet);
 * an empty query value (`?status=`) means "no filter". Errors: VALIDATION_ERROR naming a bad filter.
 */
export class ListTemplates {
  readonly #deps: { storage: Pick<Storage, 'templates'> };
  constructor(deps: { storage: Pick<Storage, 'templates'> }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, query: unknown = {}): Promise<TemplateView[]> {
    const input = parseInput(ListTemplatesInput, withoutBlankValues(query));
    const templates = await this.#deps.storage.templates.list(scope.organizationId, MAX_TEMPLATES_LISTED);
    return templates
      .filter((t) => (input.channel === undefined || t.channel === input.channel) && (input.status === undefined || t.status === input.status))
      .map(templateView);
  }
}

function withoutBlankValues(query: unknown): unknown {
  if (typeof query !== 'object' || query === null || Array.isArray(query)) return query;
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== '' && value !== undefined));
}
