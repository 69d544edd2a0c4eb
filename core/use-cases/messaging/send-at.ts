import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { sendAtProblem } from '../../domain/scheduling.ts';

/** `sendAt` on a send, a bulk request or item, an event trigger: an ISO 8601 date-time with a time zone. */
export const sendAtSchema = v.optional(v.pipe(v.string('must be an ISO 8601 date-time'),
  v.isoTimestamp('must be an ISO 8601 date-time with a time zone, e.g. 2026-12-31T09:00:00Z')));

/**
 * The release time of a validated `sendAt` (undefined when absent). More than 35 days ahead ->
 * VALIDATION_ERROR naming `field` (e.g. `sendAt`, `messages[3].sendAt`). A time in the past or within
 * the next second means now: the message is queued at once (accept-messages).
 */
export function sendAtOf(raw: string | undefined, now: Date, field = 'sendAt'): Date | undefined {
  if (raw === undefined) return undefined;
  const sendAt = new Date(raw);
  const problem = sendAtProblem(sendAt, now);
  if (problem) throw new AppError('VALIDATION_ERROR', `${field}: ${problem}`, { fieldErrors: { [field]: [problem] }, formErrors: [] });
  return sendAt;
}
