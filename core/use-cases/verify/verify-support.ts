import { AppError } from '../../errors.ts';
import { DEFAULT_VERIFY_SETTINGS, maskPasscode, passcodeText, verificationView, type Verification, type VerifySettings } from '../../domain/verification.ts';
import type { Message } from '../../domain/message.ts';
import type { Clock } from '../../ports/clock.ts';
import type { CredentialCipher } from '../../ports/credential-cipher.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Passcodes } from '../../ports/passcodes.ts';
import type { PricingRepository } from '../../ports/pricing-repository.ts';
import type { RateLimiter } from '../../ports/rate-limiter.ts';
import type { Repositories, Storage } from '../../ports/storage.ts';
import { publishOutboundEvent } from '../webhooks/publish-outbound-event.ts';
import type { AcceptCoalescer } from '../messaging/accept-coalescer.ts';
import type { CheckCounter } from './check-counter.ts';
import type { AcceptRequest } from '../messaging/accept-messages.ts';
import { prepareMessage, preparedMetaTemplate } from '../messaging/message-preparation.ts';
import { MAX_TEMPLATES_LISTED } from '../templates/list-templates.ts';
import { mappedVariables } from '../../domain/whatsapp-template.ts';
import type { Template } from '../../domain/template.ts';
import type { SendContext } from '../messaging/send-context.ts';
import { QUEUES } from '../../ports/job-queue.ts';

export interface VerifyDeps {
  storage: Storage;
  pricing: PricingRepository;
  clock: Clock;
  ids: IdGenerator;
  passcodes: Passcodes;
  /** Seals a passcode message's clear text for delivery: only the masked text is stored (docs/verify.md). */
  sealer: CredentialCipher;
  rateLimiter: RateLimiter;
  /** The group commit every send goes through (the same as POST /messages/send's). */
  coalescer: AcceptCoalescer;
  /** The group commit of check counting. */
  checkCounter: CheckCounter;
}

export async function settingsOf(storage: Pick<Repositories, 'verifications'>, organizationId: string): Promise<VerifySettings> {
  return { ...DEFAULT_VERIFY_SETTINGS, ...(await storage.verifications.settings(organizationId)) };
}

/**
 * One passcode message through the send pipeline (priced, screened, charged once, queued for the
 * worker), on channel `channels[channelIndex]`, carrying `code`. Answers the accepted message (QUEUED,
 * or REJECTED by the fraud screens: then nothing was charged).
 */
export async function sendPasscode(deps: VerifyDeps, ctx: SendContext, v: Pick<Verification, 'recipient' | 'country' | 'channels' | 'locale' | 'template' | 'expiresAt'>,
  channelIndex: number, code: string, alsoWrite?: AcceptRequest['alsoWrite']): Promise<Message> {
  const channel = v.channels[channelIndex]!;
  const minutes = Math.max(1, Math.round((v.expiresAt.getTime() - deps.clock.now().getTime()) / 60_000));
  const rules = await deps.pricing.listActive();
  const prepare = (shown: string) => prepareMessage({
    channel, to: v.recipient, body: passcodeText(channel, shown, v.locale, minutes, v.template), countryCode: v.country ?? 'GH', category: 'OTP',
    ...(channel === 'EMAIL' ? { subject: `Your verification code: ${shown}` } : {}),
  }, null, rules);
  // Priced, screened and sent as the real text; stored and shown masked, the real text sealed for delivery only.
  const clear = prepare(code);
  const masked = prepare(maskPasscode(code));
  // WhatsApp outside the 24-hour window: the organization's authentication template (docs/whatsapp-templates.md), the code masked too.
  const otpTemplate = channel === 'WHATSAPP' ? await whatsappOtpTemplate(deps.storage, ctx.organizationId) : null;
  const clearTemplate = preparedMetaTemplate(otpTemplate, { code, minutes: String(minutes) });
  const maskedTemplate = preparedMetaTemplate(otpTemplate, { code: maskPasscode(code), minutes: String(minutes) });
  const prepared = { ...clear, subject: masked.subject, body: masked.body, ...(maskedTemplate ? { metaTemplate: maskedTemplate } : {}),
    sealedContent: deps.sealer.encrypt(JSON.stringify({ subject: clear.subject, body: clear.body, ...(clearTemplate ? { whatsappTemplate: clearTemplate.send } : {}) })) };
  const accepted = await deps.coalescer.accept({ ctx, prepared: [prepared], async: true, idempotency: null, whatsappWindowExempt: true, ...(alsoWrite ? { alsoWrite } : {}) });
  return accepted.messages[0]!;
}

/**
 * The WHATSAPP template passcodes go as outside the 24-hour window: the organization's newest WHATSAPP
 * template in category OTP with a Meta template (an authentication template: the code as body
 * parameter and as the copy-code button's url parameter) reading only `code` and `minutes`, one Meta
 * approved first; null when
 * it has none (then the text, within the window, or the provider's configured template).
 */
async function whatsappOtpTemplate(storage: Pick<Repositories, 'templates'>, organizationId: string): Promise<Template | null> {
  const templates = await storage.templates.list(organizationId, MAX_TEMPLATES_LISTED);
  const usable = templates.filter((t) => t.channel === 'WHATSAPP' && t.category === 'OTP' && t.status === 'APPROVED' && t.metaTemplate
    && mappedVariables(t.metaTemplate).every((name) => name === 'code' || name === 'minutes'));
  return usable.find((t) => t.metaCheck?.status === 'APPROVED') ?? usable[0] ?? null;
}

/** verification.approved / verification.failed, recorded for webhook endpoints (outbox); inside `tx` when given. */
export async function publishVerificationEvent(deps: Pick<VerifyDeps, 'storage' | 'ids' | 'clock'>, v: Verification, kind: 'verification.approved' | 'verification.failed',
  tx?: Pick<Repositories, 'outboundEvents' | 'jobs'>): Promise<void> {
  const now = deps.clock.now();
  const event = { id: deps.ids.next(), organizationId: v.organizationId, kind, data: verificationView(v, now, new Map(), { forWebhook: true }), occurredAt: now };
  if (tx) await publishOutboundEvent(tx, event);
  else await deps.storage.transaction((t) => publishOutboundEvent(t, event));
}

/** The verification of the organization, or NOT_FOUND. */
export async function ownVerification(storage: Pick<Repositories, 'verifications'>, organizationId: string, id: string): Promise<Verification> {
  const v = await storage.verifications.findById(organizationId, id);
  if (!v) throw new AppError('NOT_FOUND', 'Verification not found');
  return v;
}

/**
 * Schedules the fallback check of a multi-channel verification after `fallbackAfterSeconds`; with `rejected`
 * (the send's message was REJECTED: it will never be delivered) at once, last channel included, so the
 * next channel goes now or the verification is FAILED.
 */
export async function scheduleFallback(storage: Pick<Repositories, 'jobs'>, v: Pick<Verification, 'id' | 'organizationId' | 'channels' | 'channelIndex' | 'fallbackAfterSeconds'>,
  sendAttempts: number, rejected = false): Promise<void> {
  const data = { organizationId: v.organizationId, verificationId: v.id, sendAttempts };
  const lane = { lane: 'OTP', tenant: v.organizationId } as const;
  if (rejected) await storage.jobs.enqueue(QUEUES.verifyFallback, data, lane);
  else if (v.channelIndex + 1 < v.channels.length) await storage.jobs.enqueue(QUEUES.verifyFallback, data, { startAfterSeconds: v.fallbackAfterSeconds, ...lane });
}

/** The delivery statuses of a verification's messages, for its view. */
export async function sendStatuses(storage: Pick<Repositories, 'messages'>, v: Verification): Promise<Map<string, string>> {
  if (v.sends.length === 0) return new Map();
  return new Map((await storage.messages.findManyByIds(v.organizationId, v.sends.map((s) => s.messageId))).map((m) => [m.id, m.status]));
}
