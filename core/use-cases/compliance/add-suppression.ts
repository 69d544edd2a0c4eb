import * as v from 'valibot';
import { VENDOR_CHANNELS as CHANNELS } from '../../domain/channel.ts';
import { normalizePhone } from '../../domain/phone.ts';
import { normalizeEmail } from '../../domain/recipient.ts';
import { AppError } from '../../errors.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Storage } from '../../ports/storage.ts';
import type { Suppression } from '../../ports/suppression-repository.ts';
import { parseInput } from '../../validation.ts';
import { suppressionView, type SuppressionView } from './suppression-view.ts';

/** Spec "Suppression entry (create)"; `countryCode` (default GH) reads a national-format phone. */
export const AddSuppressionInput = v.pipe(
  v.object({
    phone: v.optional(v.pipe(v.string('must be a string'), v.maxLength(40, 'must be at most 40 characters'))),
    email: v.optional(v.pipe(v.string('must be a string'), v.maxLength(254, 'must be at most 254 characters'))),
    channel: v.optional(v.picklist(CHANNELS, `must be one of ${CHANNELS.join(', ')}`)),
    reason: v.optional(v.pipe(v.string('must be a string'), v.trim(), v.maxLength(500, 'must be at most 500 characters'))),
    countryCode: v.optional(v.pipe(v.string('must be a string'), v.regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code')), 'GH'),
  }),
  v.check((input) => Boolean(input.phone?.trim() || input.email?.trim()), 'phone or email is required'),
);

/**
 * POST /compliance/suppression: the organization stops messaging a phone (stored in E.164) and/or
 * an email (stored lowercased), on one channel or, without `channel`, on every channel. Every send
 * path checks the list (accept-messages.ts) and answers REJECTED with RECIPIENT_SUPPRESSED.
 * Errors: VALIDATION_ERROR (neither phone nor email, an unreadable phone or email), CONFLICT (the
 * same entry already exists).
 */
export class AddSuppression {
  readonly #deps: { storage: Pick<Storage, 'suppressions'>; ids: IdGenerator; clock: Clock };
  constructor(deps: { storage: Pick<Storage, 'suppressions'>; ids: IdGenerator; clock: Clock }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, raw: unknown): Promise<SuppressionView> {
    const input = parseInput(AddSuppressionInput, raw);
    let phone: string | null = null;
    if (input.phone?.trim()) {
      const result = normalizePhone(input.phone, input.countryCode);
      if (!result.ok) throw invalid('phone', result.reason);
      phone = result.phone.e164;
    }
    let email: string | null = null;
    if (input.email?.trim()) {
      email = normalizeEmail(input.email)?.toLowerCase() ?? null;
      if (email === null) throw invalid('email', 'is not a valid email address');
    }
    const entry: Suppression = {
      id: this.#deps.ids.next(), organizationId: scope.organizationId, phone, email, channel: input.channel ?? null, category: null,
      reason: input.reason || null, createdAt: this.#deps.clock.now(),
    };
    try {
      await this.#deps.storage.suppressions.insert(entry);
    } catch (error) {
      if (error instanceof AppError && error.code === 'CONFLICT') throw new AppError('CONFLICT', 'This recipient is already suppressed on that channel');
      throw error;
    }
    return suppressionView(entry);
  }
}

function invalid(field: string, reason: string): AppError {
  return new AppError('VALIDATION_ERROR', `${field} ${reason}`, { fieldErrors: { [field]: [reason] }, formErrors: [] });
}
