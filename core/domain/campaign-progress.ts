import type { CampaignCounts, CampaignStatus } from './campaign.ts';

/**
 * What the fan-out records on the campaign row for progress and the ETA (docs/campaigns.md, "Progress
 * and ETA"): the audience size counted when the fan-out starts, how many contacts were handed over, and
 * the recent rates (exponentially weighted over batches, then over the completion polls).
 */
export interface FanOutProgress {
  /** Contacts in the audience when the fan-out started (null until its first batch). */
  audienceTotal: number | null;
  /** Contacts handed to the pipeline so far (messaged or skipped). */
  processed: number;
  /** Contacts per second over the recent batches; null before two samples. */
  fanOutRate: number | null;
  /** Recipients' messages settling (sent, delivered, failed ...) per second over the recent completion polls. */
  deliveryRate: number | null;
  /** When the last sample was taken (a batch's commit or a completion poll); null after a pause. */
  sampledAt: Date | null;
  /** Settled messages at the last completion poll (null during the fan-out). */
  sampledSettled: number | null;
}

export const NO_PROGRESS: FanOutProgress = { audienceTotal: null, processed: 0, fanOutRate: null, deliveryRate: null, sampledAt: null, sampledSettled: null };

/** Weight of the newest sample in the rates: about the last ten samples count. */
const RATE_WEIGHT = 0.2;

/** The rate after `count` more items in `seconds`, blended into the previous rate. */
export function blendRate(previous: number | null, count: number, seconds: number): number | null {
  if (seconds <= 0) return previous;
  const current = count / seconds;
  return previous === null ? current : previous * (1 - RATE_WEIGHT) + current * RATE_WEIGHT;
}

/** After a batch of `handled` contacts committed at `now`. The first batch only starts the clock. */
export function afterBatch(p: FanOutProgress, handled: number, now: Date): FanOutProgress {
  const fanOutRate = p.sampledAt ? blendRate(p.fanOutRate, handled, (now.getTime() - p.sampledAt.getTime()) / 1000) : p.fanOutRate;
  return { ...p, processed: p.processed + handled, fanOutRate, sampledAt: now };
}

/** How old the delivery counts a campaign view shows may be (CampaignRepository.recentCounts): counting a large campaign takes seconds. */
export const VIEW_COUNTS_MAX_AGE_SECONDS = 5;

/** Messages that reached a final state (or were skipped): what the delivery phase counts down to. */
export function settledOf(counts: CampaignCounts): number {
  return counts.sent + counts.delivered + counts.failed + counts.rejected + counts.cancelled + counts.skipped;
}

/** After a completion poll saw `settled` messages at `now`. */
export function afterPoll(p: FanOutProgress, settled: number, now: Date): FanOutProgress {
  const deliveryRate = p.sampledAt && p.sampledSettled !== null
    ? blendRate(p.deliveryRate, Math.max(0, settled - p.sampledSettled), (now.getTime() - p.sampledAt.getTime()) / 1000) : p.deliveryRate;
  return { ...p, deliveryRate, sampledAt: now, sampledSettled: settled };
}

/**
 * The `progress` of a campaign view. `phase`: FAN_OUT while contacts are still being handed over,
 * DELIVERY while their messages are queued, null otherwise. `etaSeconds` counts down the current
 * phase at its recent rate (null when paused, finished, or no rate is known yet).
 */
export function progressView(status: CampaignStatus, fanOutDone: boolean, p: FanOutProgress, counts: CampaignCounts, now: Date) {
  const total = Math.max(p.audienceTotal ?? 0, p.processed);
  const active = status === 'SENDING';
  const phase = !active ? null : fanOutDone ? 'DELIVERY' as const : 'FAN_OUT' as const;
  const waiting = counts.queued + counts.pending;
  const remaining = phase === 'FAN_OUT' ? total - p.processed : phase === 'DELIVERY' ? waiting : 0;
  const rate = phase === 'FAN_OUT' ? p.fanOutRate : phase === 'DELIVERY' ? p.deliveryRate : null;
  const counted = phase !== 'FAN_OUT' || p.audienceTotal !== null; // before the first batch the audience is not counted yet
  const etaSeconds = phase === null || !counted ? null : remaining === 0 ? 0 : rate && rate > 0 ? Math.ceil(remaining / rate) : null;
  return {
    total, processed: p.processed, queued: waiting, sent: counts.sent + counts.delivered, failed: counts.failed + counts.rejected,
    percent: total === 0 ? (fanOutDone ? 100 : 0) : Math.floor((p.processed / total) * 100),
    paused: status === 'PAUSED', phase, ratePerSecond: rate === null || phase === null ? null : Math.round(rate * 10) / 10, etaSeconds,
    estimatedCompletionAt: etaSeconds === null ? null : new Date(now.getTime() + etaSeconds * 1000).toISOString(),
  };
}
