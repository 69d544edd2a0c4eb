import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import { effectiveStatus, MAX_SEND_ATTEMPTS, RESEND_COOLDOWN_SECONDS, VERIFY_CHANNELS, verificationView, type VerifyChannel } from '../../domain/verification.ts';
import type { SendContext } from '../messaging/send-context.ts';
import { recipientOf } from './start-verification.ts';
import { ownVerification, scheduleFallback, sendPasscode, type VerifyDeps } from './verify-support.ts';

export const ResendVerificationInput = v.object({ channel: v.optional(v.picklist(VERIFY_CHANNELS, `must be one of ${VERIFY_CHANNELS.join(', ')}`)) });

/**
 * POST /verify/{id}/resend: a new code on the same verification (the old one stops working), on the
 * current channel or `channel` (same recipient). At most 5 sends (VERIFY_MAX_SENDS), 30 s apart
 * (VERIFY_RESEND_COOLDOWN); only a PENDING, unexpired verification (CONFLICT otherwise). Charged as a message.
 */
export class ResendVerification {
  readonly #deps: VerifyDeps;
  constructor(deps: VerifyDeps) { this.#deps = deps; }

  async execute(ctx: SendContext, id: string, raw: unknown) {
    const input = parseInput(ResendVerificationInput, raw ?? {});
    const { storage, clock, passcodes } = this.#deps;
    const current = await ownVerification(storage, ctx.organizationId, id);
    const now = clock.now();
    const status = effectiveStatus(current, now);
    if (status !== 'PENDING') throw new AppError('CONFLICT', `The verification is ${status.toLowerCase()}; start a new one`, { status });
    if (current.sendAttempts >= MAX_SEND_ATTEMPTS) throw new AppError('VERIFY_MAX_SENDS', `A verification is sent at most ${MAX_SEND_ATTEMPTS} times; start a new one`, { limit: MAX_SEND_ATTEMPTS });
    const waited = (now.getTime() - current.lastSentAt.getTime()) / 1000;
    if (waited < RESEND_COOLDOWN_SECONDS) {
      const retryAfterSeconds = Math.ceil(RESEND_COOLDOWN_SECONDS - waited);
      throw new AppError('VERIFY_RESEND_COOLDOWN', `Wait ${retryAfterSeconds} s before sending another code`, { retryAfterSeconds });
    }
    const channel: VerifyChannel = input.channel ?? current.channels[current.channelIndex]!;
    recipientOf(current.recipient, current.country ?? 'GH', [channel]); // the recipient must suit the channel
    const channels = current.channels.includes(channel) ? current.channels : [...current.channels, channel];
    const channelIndex = channels.indexOf(channel);
    // Claim this send before any code goes out: of two resends at once, the second is refused here, not after sending a second code.
    if (!(await storage.verifications.claimFallbackSend(ctx.organizationId, id, current.sendAttempts, current.lastSentAt, now))) {
      throw new AppError('CONFLICT', 'Another send of this verification is under way; its code is the valid one');
    }
    const code = passcodes.generate(current.codeLength);
    const message = await sendPasscode(this.#deps, ctx, { ...current, channels }, channelIndex, code).catch(async (error: unknown) => {
      await storage.verifications.claimFallbackSend(ctx.organizationId, id, current.sendAttempts, now, current.lastSentAt); // nothing sent: the claim back
      throw error;
    });
    // The channel used last is the one this code went by (a channel outside the list joins it, so `channel` says so).
    const saved = await storage.verifications.recordSend(ctx.organizationId, id, current.sendAttempts, { channel, messageId: message.id, createdAt: now },
      { codeHash: passcodes.hash(id, code), channels, channelIndex, sandboxCode: ctx.isSandbox ? code : null }, clock.now());
    if (!saved) throw new AppError('CONFLICT', 'Another send of this verification happened at the same time; its code is the valid one');
    await scheduleFallback(storage, saved, saved.sendAttempts, message.status === 'REJECTED');
    return verificationView(saved, clock.now(), new Map([[message.id, message.status]]));
  }
}
