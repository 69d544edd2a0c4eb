import * as v from 'valibot';
import { TEMPLATE_CATEGORIES } from '../../domain/channel.ts';
import { checkCompliance, type ComplianceResult } from '../../domain/compliance.ts';
import { parseInput } from '../../validation.ts';

/** Longest text checked: an email body (the longest message the service sends). */
export const CHECKED_MESSAGE_MAX = 100_000;

/** Spec "Compliance check": message required, category default MARKETING; `language` picks the phrase lists (default en). */
export const CheckMessageInput = v.object({
  message: v.pipe(v.string('must be a string'), v.check((m) => m.trim() !== '', 'is required'),
    v.maxLength(CHECKED_MESSAGE_MAX, `must be at most ${CHECKED_MESSAGE_MAX} characters`)),
  category: v.optional(v.picklist(TEMPLATE_CATEGORIES, `must be one of ${TEMPLATE_CATEGORIES.join(', ')}`), 'MARKETING'),
  language: v.optional(v.pipe(v.string('must be a string'), v.regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, 'must be a language tag such as en or fr'))),
});

/**
 * POST /compliance/check-message: the rule-based check (core/domain/compliance.ts) on a draft.
 * Stores nothing. Errors: VALIDATION_ERROR.
 */
export class CheckMessage {
  readonly #ownLinkBases: readonly string[];
  /** `ownLinkBases`: the platform's tracked-link base (LINK_BASE_URL): links under it are ours and safe. */
  constructor(deps: { ownLinkBases?: readonly string[] } = {}) { this.#ownLinkBases = deps.ownLinkBases ?? []; }

  execute(raw: unknown): ComplianceResult {
    const input = parseInput(CheckMessageInput, raw);
    return checkCompliance(input.message, input.category, input.language ? [input.language] : undefined, { ownLinkBases: this.#ownLinkBases });
  }
}
