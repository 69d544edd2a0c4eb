import type { SendContext } from '../messaging/send-context.ts';
import { publishVerificationEvent, scheduleFallback, sendPasscode, sendStatuses, type VerifyDeps } from './verify-support.ts';

/**
 * The worker's `verify-fallback` job, `fallbackAfterSeconds` after a send of a multi-channel
 * verification: when the verification is still PENDING with no newer send, and the passcode's message
 * was not DELIVERED, the next channel gets a new code (charged like any message). When the last
 * channel's message FAILED or was REJECTED, the verification is FAILED (verification.failed).
 */
export class AdvanceVerification {
  readonly #deps: VerifyDeps;
  constructor(deps: VerifyDeps) { this.#deps = deps; }

  async execute(job: { organizationId: string; verificationId: string; sendAttempts: number }): Promise<void> {
    const { storage, clock, passcodes } = this.#deps;
    const v = await storage.verifications.findById(job.organizationId, job.verificationId);
    if (!v || v.status !== 'PENDING' || v.sendAttempts !== job.sendAttempts || v.expiresAt.getTime() <= clock.now().getTime()) return;
    const last = v.sends[v.sends.length - 1];
    const lastStatus = last ? (await sendStatuses(storage, v)).get(last.messageId) : undefined;
    if (lastStatus === 'DELIVERED') return;
    const next = v.channelIndex + 1;
    if (next >= v.channels.length) {
      if (lastStatus === 'FAILED' || lastStatus === 'REJECTED') {
        const failed = await storage.verifications.setStatus(v.organizationId, v.id, ['PENDING'], 'FAILED', clock.now());
        if (failed) await publishVerificationEvent(this.#deps, failed, 'verification.failed');
      }
      return;
    }
    // The delayed job of a send and the one its failure enqueues may run together: only one sends the next code.
    if (!await storage.verifications.claimFallbackSend(v.organizationId, v.id, v.sendAttempts, v.lastSentAt, clock.now())) return;
    const ctx: SendContext = { organizationId: v.organizationId, userId: null, apiKeyId: null, isSandbox: false };
    const message = await this.#sandboxAware(v.sends.length > 0 ? v.sends[0]!.messageId : null, ctx);
    const code = passcodes.generate(v.codeLength);
    const sent = await sendPasscode(this.#deps, message, v, next, code);
    const saved = await storage.verifications.recordSend(v.organizationId, v.id, v.sendAttempts, { channel: v.channels[next]!, messageId: sent.id, createdAt: clock.now() },
      { codeHash: passcodes.hash(v.id, code), channels: v.channels, channelIndex: next, sandboxCode: message.isSandbox ? code : null }, clock.now());
    if (saved) await scheduleFallback(storage, saved, saved.sendAttempts, sent.status === 'REJECTED');
  }

  /** The fallback sends as the first send did: a sandbox verification stays in the sandbox. */
  async #sandboxAware(firstMessageId: string | null, ctx: SendContext): Promise<SendContext> {
    if (!firstMessageId) return ctx;
    const [first] = await this.#deps.storage.messages.findManyByIds(ctx.organizationId, [firstMessageId]);
    return first ? { ...ctx, isSandbox: first.isSandbox, apiKeyId: first.apiKeyId, userId: first.userId } : ctx;
  }
}
