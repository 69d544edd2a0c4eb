import * as v from 'valibot';
import { AppError, isAppError } from '../../errors.ts';
import { KEYWORD_ACTIONS, KEYWORD_MAX, normalizeKeyword, OPT_IN_KEYWORDS, OPT_OUT_KEYWORDS, TENANT_KEYWORDS_MAX, tenantKeywordView } from '../../domain/inbound-keywords.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Storage } from '../../ports/storage.ts';
import { parseInput } from '../../validation.ts';

export const CreateKeywordInput = v.pipe(v.object({
  keyword: v.pipe(v.string('must be a string'), v.transform(normalizeKeyword), v.minLength(1, 'is required'), v.maxLength(KEYWORD_MAX, `must be at most ${KEYWORD_MAX} characters`)),
  action: v.picklist(KEYWORD_ACTIONS, `must be one of ${KEYWORD_ACTIONS.join(', ')}`),
  replyText: v.optional(v.nullable(v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(480, 'must be at most 480 characters')))),
}), v.forward(v.check((i) => i.action !== 'AUTO_REPLY' || Boolean(i.replyText), 'is required for AUTO_REPLY'), ['replyText']));

/**
 * POST /conversations/keywords: adds one of the organization's keywords (docs/conversations.md). A
 * built-in opt-out/opt-in word may only get a confirmation replyText of its own action (400); at most
 * 50 (LIMIT_REACHED); CONFLICT for a duplicate.
 */
export class CreateKeyword {
  readonly #deps: { storage: Storage; ids: IdGenerator; clock: Clock };
  constructor(deps: { storage: Storage; ids: IdGenerator; clock: Clock }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, raw: unknown) {
    const input = parseInput(CreateKeywordInput, raw);
    const builtIn = OPT_OUT_KEYWORDS.includes(input.keyword) ? 'OPT_OUT' : OPT_IN_KEYWORDS.includes(input.keyword) ? 'OPT_IN' : null;
    if (builtIn && builtIn !== input.action) {
      throw new AppError('VALIDATION_ERROR', `${input.keyword} is a built-in ${builtIn} keyword`, { fieldErrors: { action: [`must be ${builtIn} for the built-in keyword ${input.keyword}`] }, formErrors: [] });
    }
    const { storage, ids, clock } = this.#deps;
    const keyword = { id: ids.next(), organizationId: scope.organizationId, keyword: input.keyword, action: input.action, replyText: input.replyText ?? null, createdAt: clock.now() };
    let inserted: boolean;
    try {
      inserted = await storage.conversations.insertKeywordWithinLimit(keyword, TENANT_KEYWORDS_MAX);
    } catch (error) {
      if (isAppError(error) && error.code === 'CONFLICT') throw new AppError('CONFLICT', `The keyword ${input.keyword} exists already`, { keyword: input.keyword });
      throw error;
    }
    if (!inserted) throw new AppError('LIMIT_REACHED', `At most ${TENANT_KEYWORDS_MAX} keywords per organization`, { limit: TENANT_KEYWORDS_MAX });
    return tenantKeywordView(keyword);
  }
}
