import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { fields, parseInput } from '../../validation.ts';
import type { Clock } from '../../ports/clock.ts';
import type { EmailSender } from '../../ports/email-sender.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { RateLimiter } from '../../ports/rate-limiter.ts';
import type { Secrets } from '../../ports/secrets.ts';
import type { Storage } from '../../ports/storage.ts';

export const RequestPasswordResetInput = v.object({
  email: fields.email(),
});

export interface RequestPasswordResetDeps {
  storage: Storage;
  secrets: Secrets;
  email: EmailSender;
  rateLimiter: RateLimiter;
  ids: IdGenerator;
  clock: Clock;
  /** Base URL of the web app; the emailed link is `${publicUrl}/reset-password?token=...`. */
  publicUrl: string;
  tokenTtlMinutes: number;
  /** Requests allowed per email and per client IP in a one-hour window. */
  limits: { perEmail: number; perIp: number };
  /** Told about an email the transport failed to send (the caller still gets the success answer). */
  onSendFailure?: (error: unknown, context: { userId: string }) => void;
}

const WINDOW_SECONDS = 60 * 60;
const TOKEN_BYTES = 32;

/** The one answer, whether or not the account exists, so the endpoint cannot probe for accounts. */
export const PASSWORD_RESET_REQUESTED = 'If an account exists for this email, a password reset link has been sent to it.';

/**
 * Emails a single-use password reset link. Only the SHA-256 of the token is stored, with an expiry.
 * Older open tokens of the user stay valid until they expire or any one is used (a reset
 * invalidates them all). Errors: EMAIL_REQUIRED, VALIDATION_ERROR, RATE_LIMITED (per client IP).
 * Over the per-email limit the answer is the same success but no email is sent, so the endpoint
 * can neither mail-bomb an inbox nor reveal whether the account exists.
 */
export class RequestPasswordReset {
  readonly #deps: RequestPasswordResetDeps;
  constructor(deps: RequestPasswordResetDeps) { this.#deps = deps; }

  async execute(raw: unknown, clientIp: string): Promise<{ message: string }> {
    if (isBlank((raw as { email?: unknown } | null | undefined)?.email)) {
      throw new AppError('EMAIL_REQUIRED', 'Email is required', { fieldErrors: { email: ['is required'] }, formErrors: [] });
    }
    const input = parseInput(RequestPasswordResetInput, raw);
    const { storage, secrets, rateLimiter, ids, clock, limits } = this.#deps;

    const byIp = await rateLimiter.hit(`forgot-password:ip:${clientIp}`, limits.perIp, WINDOW_SECONDS);
    if (!byIp.allowed) {
      throw new AppError('RATE_LIMITED', 'Too many password reset requests; try again later', { retryAfterSeconds: byIp.retryAfterSeconds });
    }
    const byEmail = await rateLimiter.hit(`forgot-password:email:${input.email}`, limits.perEmail, WINDOW_SECONDS);
    const answer = { message: PASSWORD_RESET_REQUESTED };
    if (!byEmail.allowed) return answer;

    const user = await storage.users.findByEmail(input.email);
    if (!user) return answer;

    const token = secrets.randomToken(TOKEN_BYTES);
    const now = clock.now();
    await storage.passwordResets.insert({
      id: ids.next(), userId: user.id, tokenHash: secrets.sha256(token),
      expiresAt: new Date(now.getTime() + this.#deps.tokenTtlMinutes * 60_000), usedAt: null, createdAt: now,
    });

    // Sent inline (there is no email job yet) and a transport failure is reported, not thrown: the
    // caller gets the same answer either way (an error would reveal the account exists), the token is
    // already stored, and the user can simply ask again. A slow transport (SMTP) should move this to a
    // queued job, which also removes the timing difference between known and unknown emails.
    try {
      await this.#deps.email.send(resetEmail(user.email, user.firstName, `${this.#deps.publicUrl}/reset-password?token=${encodeURIComponent(token)}`, this.#deps.tokenTtlMinutes));
    } catch (error) {
      this.#deps.onSendFailure?.(error, { userId: user.id });
    }
    return answer;
  }
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

function resetEmail(to: string, firstName: string, link: string, ttlMinutes: number) {
  return {
    to,
    subject: 'Reset your Nkra password',
    text: [
      `Hello ${firstName},`,
      '',
      'Someone (hopefully you) asked to reset the password of your Nkra account. Open this link to choose a new one:',
      '',
      link,
      '',
      `The link works once and expires in ${ttlMinutes} minutes. If you did not ask for it, ignore this email; your password stays unchanged.`,
    ].join('\n'),
  };
}
