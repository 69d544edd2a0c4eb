import { AppError } from '../../errors.ts';
import { publishOutboundEvent } from '../webhooks/publish-outbound-event.ts';
import type { VerifyDeps } from './verify-support.ts';

/** The window of the organization's start budget (`maxStartsPerHour` in the Verify settings). */
export const VERIFY_BUDGET_WINDOW_SECONDS = 3600;

/**
 * Counts one start against the organization's hourly budget (docs/verify.md), whatever its recipient, prefix
 * or address, so pumping spread over many prefixes and addresses still stops. The count is one atomic
 * upsert in the database (the rate limiter), so it holds under concurrency and across processes. The one
 * start that first goes over (count = limit + 1, exactly one per window) publishes
 * `verification.budget_exceeded`: the owner hears once per window. Errors: VERIFY_RATE_LIMITED (rule organization).
 */
export async function chargeOrganizationBudget(deps: Pick<VerifyDeps, 'rateLimiter' | 'storage' | 'ids' | 'clock'>, organizationId: string, limit: number): Promise<void> {
  const verdict = await deps.rateLimiter.hit(`verify:org:${organizationId}`, limit, VERIFY_BUDGET_WINDOW_SECONDS);
  if (verdict.allowed) return;
  if (verdict.count === limit + 1) {
    const now = deps.clock.now();
    const data = { limit, windowSeconds: VERIFY_BUDGET_WINDOW_SECONDS, resetsAt: new Date(now.getTime() + verdict.retryAfterSeconds * 1000).toISOString() };
    await deps.storage.transaction((tx) => publishOutboundEvent(tx, { id: deps.ids.next(), organizationId, kind: 'verification.budget_exceeded', data, occurredAt: now }));
  }
  throw new AppError('VERIFY_RATE_LIMITED', 'This organization reached its hourly verification budget; raise maxStartsPerHour in the Verify settings if this traffic is yours',
    { rule: 'organization', limit, retryAfterSeconds: verdict.retryAfterSeconds });
}
