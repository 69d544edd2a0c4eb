import type { Verification, VerificationSend, VerificationStatus, VerifyChannel, VerifySettings } from '../domain/verification.ts';

/** Starts and approvals of one group (a channel, a country, an hour) for Verify analytics. */
export interface VerifyConversionRow { channel: VerifyChannel; country: string | null; hour: Date; starts: number; approvals: number }

/** What a send changes besides its count and list: the new code's hash, the channel list and the one used, a sandbox verification's code. */
export interface RecordedCode {
  codeHash: string;
  channels: VerifyChannel[];
  channelIndex: number;
  /** The new code of a sandbox verification; null for a live one. */
  sandboxCode: string | null;
}

/**
 * Verifications (docs/verify.md), tenant-scoped. The conditional updates are what make the attempt
 * limits hold under concurrency: a check is counted only while the verification is PENDING, unexpired
 * and under the limit; an approval happens once; a send is recorded only on the send count it read.
 */
export interface VerificationRepository {
  /** A verification with an idempotencyKey its organization already used is AppError CONFLICT. */
  insert(v: Verification): Promise<void>;
  /** Several at once (the verifications of a batch of starts); CONFLICT as `insert`. */
  insertMany(verifications: readonly Verification[]): Promise<void>;
  findByIdempotencyKey(organizationId: string, key: string): Promise<Verification | null>;
  /** Removes a verification whose first send could not be accepted (nothing was sent). */
  remove(organizationId: string, id: string): Promise<void>;
  findById(organizationId: string, id: string): Promise<Verification | null>;
  /** The newest PENDING verification of a recipient, or null. */
  findLatestPending(organizationId: string, recipient: string): Promise<Verification | null>;
  /** Every PENDING verification of the recipient but `exceptId` becomes CANCELED (superseded); answers how many. */
  supersede(organizationId: string, recipient: string, exceptId: string, now: Date): Promise<number>;
  /** `supersede` for several (organization, recipient, kept id) at once. */
  supersedeMany(items: ReadonlyArray<{ organizationId: string; recipient: string; exceptId: string }>, now: Date): Promise<number>;
  /** Counts one check: only while PENDING, unexpired at `now` and under `maxAttempts`; null otherwise (nothing counted). */
  countCheck(organizationId: string, id: string, maxAttempts: number, now: Date): Promise<Verification | null>;
  /** `countCheck` for several distinct verifications in one statement (group commit of checks): the ones counted. */
  countChecks(targets: ReadonlyArray<{ organizationId: string; id: string }>, maxAttempts: number, now: Date): Promise<Verification[]>;
  /** PENDING verifications past their expiry become EXPIRED, oldest first, at most `limit`; answers them (each once, across processes). */
  expireDue(now: Date, limit: number): Promise<Verification[]>;
  /** PENDING -> APPROVED, once: null when it was not PENDING any more. */
  approve(organizationId: string, id: string, now: Date): Promise<Verification | null>;
  /** Moves the status when it is one of `from`; null otherwise. */
  setStatus(organizationId: string, id: string, from: readonly VerificationStatus[], to: VerificationStatus, now: Date): Promise<Verification | null>;
  /**
   * Records a send and its new code while the verification is PENDING and still has `expectedSendAttempts`
   * sends (two concurrent resends cannot both pass); null otherwise.
   */
  recordSend(organizationId: string, id: string, expectedSendAttempts: number, send: VerificationSend, next: RecordedCode, now: Date): Promise<Verification | null>;
  /**
   * Claims the next send (the worker's fallback, or a resend): moves `lastSentAt` to `now` only while the
   * verification is PENDING with `expectedSendAttempts` sends and the `lastSentAt` the caller read. True for
   * one of several concurrent claims (two fallback jobs of one send, or two resends at once, never both
   * send a code). Called again with the two instants swapped, it gives an unused claim back.
   */
  claimFallbackSend(organizationId: string, id: string, expectedSendAttempts: number, lastSentAt: Date, now: Date): Promise<boolean>;
  /** The PENDING verification whose latest send is message `messageId`, or null (the message is an older send, or no passcode). */
  findPendingByLastMessage(organizationId: string, messageId: string): Promise<Verification | null>;
  /** Newest first, at most `limit`; only `status` when given (PENDING means stored PENDING, expired or not). */
  list(organizationId: string, limit: number, status?: VerificationStatus): Promise<Verification[]>;
  /** Starts and approvals of a prefix since `since` (SMS-pumping statistics). */
  prefixStats(organizationId: string, prefix: string, since: Date): Promise<{ starts: number; approvals: number }>;
  /** Starts and approvals by first channel, country and hour since `since`, at most `limit` rows. */
  conversion(organizationId: string, since: Date, limit: number): Promise<VerifyConversionRow[]>;
  settings(organizationId: string): Promise<VerifySettings | null>;
  saveSettings(organizationId: string, settings: VerifySettings, now: Date): Promise<void>;
}
