import * as v from 'valibot';
import { parseInput } from '../../validation.ts';
import { contactView } from '../../domain/contact.ts';
import { parseSegmentRule } from '../../domain/segment-rules.ts';
import type { Storage } from '../../ports/storage.ts';
import { RulesSchema } from './create-segment.ts';

export const PREVIEW_SAMPLE_MAX = 20;

/** Spec "Segment preview": rules, plus an optional sample size. */
export const PreviewSegmentInput = v.object({
  rules: RulesSchema,
  sampleSize: v.optional(v.pipe(v.number('must be a number'), v.integer('must be a whole number'), v.minValue(0), v.maxValue(PREVIEW_SAMPLE_MAX, `must be at most ${PREVIEW_SAMPLE_MAX}`)), 10),
});

/** POST /segments/preview: how many contacts the rules match now, and a sample of them (first by id). Saves nothing. */
export class PreviewSegment {
  readonly #deps: { storage: Pick<Storage, 'contacts'> };
  constructor(deps: { storage: Pick<Storage, 'contacts'> }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, raw: unknown) {
    const input = parseInput(PreviewSegmentInput, raw);
    const audience = { rule: parseSegmentRule(input.rules, 'rules'), memberOf: null };
    const [count, sample] = await Promise.all([
      this.#deps.storage.contacts.count(scope.organizationId, audience),
      this.#deps.storage.contacts.page(scope.organizationId, audience, null, input.sampleSize),
    ]);
    return { count, sample: sample.map(contactView) };
  }
}
