import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import { effectiveStatus, MAX_CHECK_ATTEMPTS, VERIFY_CHANNELS, type Verification } from '../../domain/verification.ts';
import { countryCodeSchema } from '../messaging/message-preparation.ts';
import { recipientOf } from './start-verification.ts';
import { ownVerification, publishVerificationEvent, type VerifyDeps } from './verify-support.ts';

/** POST /verify/check: `id` or `to` (+ `countryCode`), and the `code`. */
export const CheckVerificationInput = v.pipe(v.object({
  id: v.optional(v.pipe(v.string('must be a string'), v.minLength(1, 'is required'), v.maxLength(64, 'is too long'))),
  to: v.optional(v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'is required'), v.maxLength(320, 'is too long'))),
  countryCode: v.optional(countryCodeSchema, 'GH'),
  code: v.pipe(v.string('must be a string'), v.trim(), v.regex(/^\d{4,10}$/, 'must be 4 to 10 digits')),
}), v.check((i) => Boolean(i.id ?? i.to), 'give the verification id or the recipient (to)'));

/**
 * Checks a code. The check is counted first, in one conditional update (only while PENDING, unexpired
 * and under 5 checks), then compared in constant time; a match approves the verification once (the
 * conditional PENDING -> APPROVED), so concurrent checks can neither exceed the attempt limit nor approve
 * twice. Always 200 with `valid`; the status says why not (EXPIRED, MAX_ATTEMPTS, CANCELED, APPROVED ...).
 */
export class CheckVerification {
  readonly #deps: Pick<VerifyDeps, 'storage' | 'clock' | 'ids' | 'passcodes' | 'checkCounter'>;
  constructor(deps: Pick<VerifyDeps, 'storage' | 'clock' | 'ids' | 'passcodes' | 'checkCounter'>) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, raw: unknown) {
    const input = parseInput(CheckVerificationInput, raw);
    const { storage, clock, passcodes, checkCounter } = this.#deps;
    const id = input.id ?? (await this.#byRecipient(scope.organizationId, input.to!, input.countryCode)).id;
    // Counted first (group-committed with concurrent checks); only a check that was not counted reads why.
    const counted = await checkCounter.count(scope.organizationId, id);
    if (!counted) return this.#notCheckable(await ownVerification(storage, scope.organizationId, id));
    if (passcodes.matches(counted.codeHash, counted.id, input.code)) {
      const approved = await storage.verifications.approve(scope.organizationId, counted.id, clock.now());
      if (approved) {
        await publishVerificationEvent(this.#deps, approved, 'verification.approved');
        return result(approved, true);
      }
      return result((await storage.verifications.findById(scope.organizationId, counted.id)) ?? counted, false);
    }
    if (counted.checkAttempts >= MAX_CHECK_ATTEMPTS) {
      const exhausted = await storage.verifications.setStatus(scope.organizationId, counted.id, ['PENDING'], 'MAX_ATTEMPTS', clock.now());
      if (exhausted) await publishVerificationEvent(this.#deps, exhausted, 'verification.failed');
      return result(exhausted ?? counted, false);
    }
    return result(counted, false);
  }

  /** Not counted: expired (recorded EXPIRED once, announced), out of attempts, or decided already. */
  async #notCheckable(target: Verification) {
    const { storage, clock } = this.#deps;
    const now = clock.now();
    if (effectiveStatus(target, now) === 'EXPIRED' && target.status === 'PENDING') {
      const expired = await storage.verifications.setStatus(target.organizationId, target.id, ['PENDING'], 'EXPIRED', now);
      if (expired) await publishVerificationEvent(this.#deps, expired, 'verification.failed');
      return result(expired ?? { ...target, status: 'EXPIRED' as const }, false);
    }
    const latest = (await storage.verifications.findById(target.organizationId, target.id)) ?? target;
    if (latest.status === 'PENDING' && latest.checkAttempts >= MAX_CHECK_ATTEMPTS) {
      const exhausted = await storage.verifications.setStatus(latest.organizationId, latest.id, ['PENDING'], 'MAX_ATTEMPTS', now);
      if (exhausted) await publishVerificationEvent(this.#deps, exhausted, 'verification.failed');
      return result(exhausted ?? { ...latest, status: 'MAX_ATTEMPTS' as const }, false);
    }
    return result({ ...latest, status: effectiveStatus(latest, now) }, false);
  }

  async #byRecipient(organizationId: string, to: string, countryCode: string): Promise<Verification> {
    const looksEmail = to.includes('@');
    const { recipient } = recipientOf(to, countryCode, [looksEmail ? 'EMAIL' : VERIFY_CHANNELS[0]]);
    const found = await this.#deps.storage.verifications.findLatestPending(organizationId, recipient);
    if (!found) throw new AppError('NOT_FOUND', 'No pending verification for this recipient');
    return found;
  }
}

function result(v: Pick<Verification, 'id' | 'status' | 'checkAttempts'>, valid: boolean) {
  return { id: v.id, status: v.status, valid, remainingAttempts: v.status === 'PENDING' ? Math.max(0, MAX_CHECK_ATTEMPTS - v.checkAttempts) : 0 };
}
