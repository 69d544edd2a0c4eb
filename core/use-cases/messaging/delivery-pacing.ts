import { laneOf } from '../../domain/delivery-lane.ts';
import type { Message } from '../../domain/message.ts';
import type { ChannelProvider, ProviderResult } from '../../ports/channel-provider.ts';
import type { Clock } from '../../ports/clock.ts';
import { QUEUES } from '../../ports/job-queue.ts';
import type { Storage } from '../../ports/storage.ts';
import type { RateBuckets } from '../../ports/rate-buckets.ts';
import type { TenantDeliveryLimitRepository } from '../../ports/tenant-delivery-limits.ts';

/**
 * Rate shaping at delivery (docs/adr/0036-delivery-lanes-and-fair-queueing.md, "Rate shaping"): a provider's
 * configured `ratePerSecond` and an organization's `maxDeliveryPerSecond` ceiling are buckets shared by every
 * worker process. A delivery that gets a slot within `maxWaitMs` waits for it in process; one that does not
 * is postponed (its job re-queued for when a slot is in reach, in its lane with its tenant's fair tag), never
 * counted as a failed attempt nor against the provider's circuit breaker.
 */
export interface DeliveryPacing {
  buckets: RateBuckets;
  /** The organizations' ceilings; without it, no tenant ceiling applies. */
  limits?: Pick<TenantDeliveryLimitRepository, 'find'> | undefined;
  /** The longest a delivery waits in process for a slot before it is postponed instead (default 250 ms: a wait holds the worker's batch). */
  maxWaitMs?: number;
  /** How long a vendor's 429 (errorCode RATE_LIMITED) holds the provider's bucket (default 1 s). */
  backOffSeconds?: number;
  sleep?: (ms: number) => Promise<void>;
}

const DEFAULT_MAX_WAIT_MS = 250;
const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The pacing key of a provider (its delivery name: an organization's own account is `<organization id>/<name>`). */
export const providerRateKey = (provider: Pick<ChannelProvider, 'name'>) => `provider:${provider.name}`;

/** Waits for a slot of `key` at `rate`; null when taken (and waited for), else the milliseconds to postpone by. */
async function paced(pacing: DeliveryPacing, key: string, rate: number): Promise<number | null> {
  const slot = await pacing.buckets.take(key, rate, pacing.maxWaitMs ?? DEFAULT_MAX_WAIT_MS);
  if (!slot.granted) return slot.retryAfterMs;
  if (slot.waitMs > 0) await (pacing.sleep ?? defaultSleep)(slot.waitMs);
  return null;
}

/** The organization's ceiling: null when the delivery may go on (no ceiling, or a slot taken), else how long to postpone. */
export async function paceTenant(pacing: DeliveryPacing | undefined, organizationId: string): Promise<number | null> {
  if (!pacing?.limits) return null;
  const { maxPerSecond } = await pacing.limits.find(organizationId);
  return maxPerSecond ? paced(pacing, `tenant:${organizationId}`, maxPerSecond) : null;
}

/** The provider's configured rate: null when the send may go on, else how long to postpone. */
export async function paceProvider(pacing: DeliveryPacing | undefined, provider: ChannelProvider): Promise<number | null> {
  return pacing && provider.ratePerSecond ? paced(pacing, providerRateKey(provider), provider.ratePerSecond) : null;
}

/** A vendor's 429 pushes its bucket back, so every process holds off it for a moment (paced providers only). */
export async function backOffOnThrottle(pacing: DeliveryPacing | undefined, provider: ChannelProvider, result: ProviderResult): Promise<void> {
  if (!pacing || !provider.ratePerSecond || result.accepted || result.errorCode !== 'RATE_LIMITED') return;
  await pacing.buckets.backOff(providerRateKey(provider), pacing.backOffSeconds ?? 1);
}

/**
 * No rate slot in reach: the claim is released (its attempt given back unless a provider was tried and
 * failed in it) and a new job is queued for when a slot is, in the message's lane with its tenant's fair
 * tag, in one transaction. The job at hand completes: a rate wait never spends a retry.
 */
export async function postponeDelivery(deps: { storage: Storage; clock: Clock }, claimed: Message, ms: number, attempted: boolean): Promise<Message | null> {
  const attempts = attempted ? claimed.attempts : claimed.attempts - 1;
  return deps.storage.transaction(async (tx) => {
    const moved = await tx.messages.transition(claimed.id, ['PENDING'], { status: attempts === 0 ? 'QUEUED' : 'PENDING', attempts, leaseUntil: null, updatedAt: deps.clock.now() });
    if (moved) {
      await tx.jobs.enqueueMany(QUEUES.notificationSend, [{
        data: { messageId: claimed.id }, options: { lane: laneOf(claimed.category), tenant: claimed.organizationId, startAfterSeconds: Math.max(0.05, ms / 1000), fairTag: true },
      }]);
    }
    return moved;
  });
}
