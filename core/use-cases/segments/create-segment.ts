import * as v from 'valibot';
import { fields, parseInput } from '../../validation.ts';
import { segmentView, type Segment } from '../../domain/segment.ts';
import { parseSegmentRule } from '../../domain/segment-rules.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Storage } from '../../ports/storage.ts';

export const RulesSchema = v.pipe(v.record(v.string(), v.unknown(), 'must be an object'),
  v.description('A segment rule (docs/segments.md): { "all": [...] }, { "any": [...] } or { "field", "op", "value" }'));

/** Spec "Segment (create)". */
export const CreateSegmentInput = v.object({
  name: fields.requiredText(200),
  rules: RulesSchema,
  description: v.optional(v.pipe(v.string('must be a string'), v.trim(), v.maxLength(1_000, 'must be at most 1000 characters'))),
  isDynamic: v.optional(v.boolean('must be true or false'), true),
});

/**
 * POST /segments. The rules are validated (VALIDATION_ERROR whose details.path names the bad rule).
 * A static segment (isDynamic false) freezes its members in the same transaction.
 */
export class CreateSegment {
  readonly #deps: { storage: Storage; ids: IdGenerator; clock: Clock };
  constructor(deps: { storage: Storage; ids: IdGenerator; clock: Clock }) { this.#deps = deps; }

  async execute(scope: { organizationId: string; userId: string | null }, raw: unknown) {
    const input = parseInput(CreateSegmentInput, raw);
    const rules = parseSegmentRule(input.rules, 'rules');
    const now = this.#deps.clock.now();
    const segment: Segment = {
      id: this.#deps.ids.next(), organizationId: scope.organizationId, name: input.name, description: input.description?.trim() || null,
      rules, isDynamic: input.isDynamic, createdByUserId: scope.userId, createdAt: now, updatedAt: now,
    };
    const count = await this.#deps.storage.transaction(async (tx) => {
      await tx.segments.insert(segment);
      return segment.isDynamic ? tx.contacts.count(scope.organizationId, { rule: rules, memberOf: null }) : tx.segments.freezeMembers(segment);
    });
    return segmentView(segment, count);
  }
}
