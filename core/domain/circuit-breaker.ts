/**
 * A per-provider circuit breaker (docs/failover.md): `threshold` consecutive failures open it; after
 * `cooldownMs` it half-opens and lets one trial through; a success closes it, a failure re-opens it.
 * Pure state transitions: the caller keeps the state and passes the time.
 */
export interface BreakerState {
  state: 'closed' | 'open' | 'half-open';
  consecutiveFailures: number;
  openedAt: number | null;
  /** A half-open trial is in flight: further calls wait for its outcome. */
  trialInFlight: boolean;
}

export interface BreakerPolicy {
  threshold: number;
  cooldownMs: number;
}

export const DEFAULT_BREAKER_POLICY: BreakerPolicy = { threshold: 5, cooldownMs: 30_000 };

export function closedBreaker(): BreakerState {
  return { state: 'closed', consecutiveFailures: 0, openedAt: null, trialInFlight: false };
}

/** Whether a call may go through now, and the state after letting it (a half-open trial is marked). */
export function breakerAllows(s: BreakerState, now: number, policy: BreakerPolicy): { allowed: boolean; next: BreakerState } {
  if (s.state === 'closed') return { allowed: true, next: s };
  if (s.state === 'open') {
    if (s.openedAt !== null && now - s.openedAt >= policy.cooldownMs) return { allowed: true, next: { ...s, state: 'half-open', trialInFlight: true } };
    return { allowed: false, next: s };
  }
  return s.trialInFlight ? { allowed: false, next: s } : { allowed: true, next: { ...s, trialInFlight: true } };
}

export function breakerSuccess(): BreakerState {
  return closedBreaker();
}

export function breakerFailure(s: BreakerState, now: number, policy: BreakerPolicy): BreakerState {
  if (s.state === 'half-open') return { state: 'open', consecutiveFailures: s.consecutiveFailures + 1, openedAt: now, trialInFlight: false };
  const failures = s.consecutiveFailures + 1;
  return failures >= policy.threshold
    ? { state: 'open', consecutiveFailures: failures, openedAt: now, trialInFlight: false }
    : { ...s, consecutiveFailures: failures };
}
