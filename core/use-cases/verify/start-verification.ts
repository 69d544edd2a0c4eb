import * as v from 'valibot';
import { AppError, isAppError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import { normalizeRecipient } from '../../domain/recipient.ts';
import { ipRateKey, normalizeIpAddress } from '../../domain/ip-address.ts';
import {
  PREFIX_MIN_CONVERSION, PREFIX_MIN_STARTS, VERIFY_CHANNELS, VERIFY_LOCALES, verificationView, verifyPrefix, type Verification, type VerifyChannel,
} from '../../domain/verification.ts';
import { countryCodeSchema, idempotencyKeySchema } from '../messaging/message-preparation.ts';
import type { SendContext } from '../messaging/send-context.ts';
import type { Repositories } from '../../ports/storage.ts';
import { chargeOrganizationBudget } from './verify-budget.ts';
import { publishVerificationEvent, scheduleFallback, sendPasscode, sendStatuses, settingsOf, type VerifyDeps } from './verify-support.ts';

const channel = v.picklist(VERIFY_CHANNELS, `must be one of ${VERIFY_CHANNELS.join(', ')}`);
const int = (min: number, max: number) => v.pipe(v.number('must be a number'), v.integer('must be a whole number'), v.minValue(min, `must be at least ${min}`), v.maxValue(max, `must be at most ${max}`));

/** POST /verify/start (docs/verify.md). */
export const StartVerificationInput = v.object({
  to: v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'is required'), v.maxLength(320, 'is too long')),
  channel: v.optional(channel),
  channels: v.optional(v.pipe(v.array(channel, 'must be an array of channels'), v.minLength(1, 'must name a channel'), v.maxLength(4, 'at most 4 channels'),
    v.check((c) => new Set(c).size === c.length, 'must not repeat a channel'))),
  countryCode: v.optional(countryCodeSchema, 'GH'),
  codeLength: v.optional(int(4, 10)),
  expiresInSeconds: v.optional(int(60, 3600)),
  fallbackAfterSeconds: v.optional(int(30, 600), 60),
  locale: v.optional(v.picklist(VERIFY_LOCALES, `must be one of ${VERIFY_LOCALES.join(', ')}`), 'en'),
  template: v.optional(v.pipe(v.string('must be a string'), v.maxLength(320, 'must be at most 320 characters'), v.check((t) => t.includes('{{code}}'), 'must contain {{code}}'))),
  // One spelling per address (203.000.113.007 and ::ffff:203.0.113.7 are 203.0.113.7), so the per-IP rule cannot be dodged.
  ipAddress: v.optional(v.pipe(v.string('must be a string'), v.trim(), v.maxLength(64, 'is too long'),
    v.check((ip) => normalizeIpAddress(ip) !== null, 'must be an IPv4 or IPv6 address'), v.transform((ip) => normalizeIpAddress(ip)!))),
  idempotencyKey: idempotencyKeySchema,
});

const HOUR_MS = 3_600_000;

/**
 * Starts a verification: checks the SMS-pumping rules (allowed countries, starts per recipient and per
 * end-user IP, prefixes whose conversion collapsed) before anything is sent or charged, records the
 * verification with its code's keyed hash in the same group-committed transaction as its passcode message
 * (charged once), supersedes the recipient's earlier PENDING verification and schedules the channel
 * fallback there too. A start the wallet cannot pay for writes nothing (402).
 */
export class StartVerification {
  readonly #deps: VerifyDeps;
  constructor(deps: VerifyDeps) { this.#deps = deps; }

  async execute(ctx: SendContext, raw: unknown) {
    const input = parseInput(StartVerificationInput, raw);
    const { storage, clock, ids, passcodes } = this.#deps;
    if (input.idempotencyKey) {
      const earlier = await storage.verifications.findByIdempotencyKey(ctx.organizationId, input.idempotencyKey);
      if (earlier) return { verification: verificationView(earlier, clock.now(), await sendStatuses(storage, earlier)), replayed: true };
    }
    const channels: VerifyChannel[] = input.channels ?? [input.channel ?? 'SMS'];
    const { recipient, country, prefix } = recipientOf(input.to, input.countryCode, channels);
    const settings = await settingsOf(storage, ctx.organizationId);
    const now = clock.now();
    await this.#screen(ctx, settings, { recipient, country, prefix, ipAddress: input.ipAddress ?? null }, now);

    const id = ids.next();
    const code = passcodes.generate(input.codeLength ?? settings.codeLength);
    const verification: Verification = {
      id, organizationId: ctx.organizationId, recipient, country, prefix, channels, channelIndex: 0, status: 'PENDING', codeHash: passcodes.hash(id, code),
      codeLength: code.length, locale: input.locale, template: input.template ?? null,
      expiresAt: new Date(now.getTime() + (input.expiresInSeconds ?? settings.expiresInSeconds) * 1000), fallbackAfterSeconds: input.fallbackAfterSeconds,
      sendAttempts: 1, checkAttempts: 0, sends: [], lastSentAt: now, ipAddress: input.ipAddress ?? null, idempotencyKey: input.idempotencyKey ?? null,
      approvedAt: null, createdAt: now, updatedAt: now, ...(ctx.isSandbox ? { sandboxCode: code } : {}),
    };
    let saved = verification;
    try {
      // The verification is written in the passcode message's own group-committed transaction (both or neither),
      // with the other starts of the batch (writeStartedVerifications).
      const message = await sendPasscode(this.#deps, ctx, verification, 0, code, {
        kind: 'verification',
        // A REJECTED passcode is FAILED at once when it was the only channel; otherwise the next channel goes at once (writeStartedVerifications).
        row: ([accepted]) => {
          saved = { ...verification, sends: [{ channel: channels[0]!, messageId: accepted!.id, createdAt: now }],
            status: accepted!.status === 'REJECTED' && channels.length === 1 ? 'FAILED' : 'PENDING' };
          if (accepted!.status === 'REJECTED') firstSendRejected.add(saved);
          return saved;
        },
        write: (tx, rows) => writeStartedVerifications(this.#deps, tx, rows as Verification[], now),
      });
      return { verification: verificationView(saved, clock.now(), new Map([[message.id, message.status]])), replayed: false };
    } catch (error) {
      // The same idempotency key in flight twice: the other start won; answer its verification.
      const earlier = isAppError(error) && error.code === 'CONFLICT' && input.idempotencyKey ? await storage.verifications.findByIdempotencyKey(ctx.organizationId, input.idempotencyKey) : null;
      if (earlier) return { verification: verificationView(earlier, clock.now(), await sendStatuses(storage, earlier)), replayed: true };
      throw error;
    }
  }

  /** The SMS-pumping rules (docs/verify.md): refused before anything is sent or charged. */
  async #screen(ctx: SendContext, settings: Awaited<ReturnType<typeof settingsOf>>, target: { recipient: string; country: string | null; prefix: string | null; ipAddress: string | null }, now: Date): Promise<void> {
    const { storage, rateLimiter } = this.#deps;
    if (target.country && !settings.allowedCountries.includes(target.country)) {
      throw new AppError('VERIFY_COUNTRY_NOT_ALLOWED', `Verifications to ${target.country} are not enabled for this organization`, { country: target.country, allowedCountries: settings.allowedCountries });
    }
    const perRecipient = await rateLimiter.hit(`verify:recipient:${ctx.organizationId}:${target.recipient}`, settings.maxStartsPerRecipientPerHour, 3600);
    if (!perRecipient.allowed) throw rateLimited('recipient', perRecipient.retryAfterSeconds);
    if (target.ipAddress) {
      // IPv6 counts per /64: rotating addresses inside one subscriber's network is one client.
      const perIp = await rateLimiter.hit(`verify:ip:${ctx.organizationId}:${ipRateKey(target.ipAddress)}`, settings.maxStartsPerIpPerHour, 3600);
      if (!perIp.allowed) throw rateLimited('ip', perIp.retryAfterSeconds);
    }
    await chargeOrganizationBudget(this.#deps, ctx.organizationId, settings.maxStartsPerHour);
    if (settings.prefixBlocking && target.prefix) {
      const stats = await storage.verifications.prefixStats(ctx.organizationId, target.prefix, new Date(now.getTime() - HOUR_MS));
      if (stats.starts >= PREFIX_MIN_STARTS && stats.approvals / stats.starts < PREFIX_MIN_CONVERSION) {
        throw new AppError('VERIFY_PREFIX_BLOCKED', `Verifications to ${target.prefix}... are paused: their conversion collapsed in the last hour (possible SMS pumping)`,
          { prefix: target.prefix, starts: stats.starts, approvals: stats.approvals });
      }
    }
  }
}

function rateLimited(rule: 'recipient' | 'ip', retryAfterSeconds: number): AppError {
  return new AppError('VERIFY_RATE_LIMITED', `Too many verifications for this ${rule === 'ip' ? 'IP address' : 'recipient'} in the last hour`, { rule, retryAfterSeconds });
}

/** Verifications (rows of a batch) whose first passcode was REJECTED while more channels remain: their fallback runs at once. */
const firstSendRejected = new WeakSet<Verification>();

/**
 * The verifications of a batch of starts, in their messages' transaction: inserted together, the earlier
 * PENDING ones of their recipients superseded, fallbacks scheduled, failures (a REJECTED passcode) announced.
 */
async function writeStartedVerifications(deps: VerifyDeps, tx: Repositories, rows: Verification[], now: Date): Promise<void> {
  await tx.verifications.insertMany(rows);
  // Per recipient, the last start of the batch wins (two starts of one recipient in a batch must not cancel each other).
  const latest = new Map(rows.map((v) => [`${v.organizationId}\u0000${v.recipient}`, v]));
  await tx.verifications.supersedeMany([...latest.values()].map((v) => ({ organizationId: v.organizationId, recipient: v.recipient, exceptId: v.id })), now);
  for (const v of rows) {
    if (v.status === 'FAILED') await publishVerificationEvent(deps, v, 'verification.failed', tx);
    else await scheduleFallback(tx, v, v.sendAttempts, firstSendRejected.has(v));
  }
}

/** The recipient for every channel of the list: one phone number (SMS, WHATSAPP, VOICE) or one email address (EMAIL), never both. */
export function recipientOf(to: string, countryCode: string, channels: readonly VerifyChannel[]): { recipient: string; country: string | null; prefix: string | null } {
  const kinds = new Set(channels.map((c) => (c === 'EMAIL' ? 'email' : 'phone')));
  if (kinds.size > 1) throw fieldError('channels', 'cannot mix EMAIL with phone channels: a verification has one recipient');
  const normalized = normalizeRecipient(channels[0]!, to, countryCode);
  if (!normalized.ok) throw fieldError('to', `to ${normalized.reason}`);
  if (!normalized.phone) return { recipient: normalized.recipient, country: null, prefix: null };
  return { recipient: normalized.recipient, country: normalized.country, prefix: verifyPrefix(normalized.recipient, normalized.phone.callingCode) };
}

function fieldError(field: string, message: string): AppError {
  return new AppError('VALIDATION_ERROR', message, { fieldErrors: { [field]: [message] }, formErrors: [] });
}
