/**
 * Scheduled sends (docs/scheduling.md): how far ahead a `sendAt` may be, and when it counts as "now".
 * Pure: the caller passes the current time.
 */

/** A `sendAt` may be at most this many days ahead. */
export const SCHEDULE_HORIZON_DAYS = 35;
export const SCHEDULE_HORIZON_MS = SCHEDULE_HORIZON_DAYS * 86_400_000;

/** Why `sendAt` is refused at `now`, or null when it is accepted (a past time, or one within a second, means now). */
export function sendAtProblem(sendAt: Date, now: Date): string | null {
  if (sendAt.getTime() - now.getTime() > SCHEDULE_HORIZON_MS) return `must be at most ${SCHEDULE_HORIZON_DAYS} days ahead`;
  return null;
}
