import type { Channel } from '../domain/channel.ts';

/** Delivery attempts of one provider (by the provider name recorded on each attempt) in a window. */
export interface ProviderAttemptFigures {
  provider: string;
  attempts: number;
  accepted: number;
  failed: number;
  /** Attempt durations in milliseconds (percentile_cont, rounded); null without attempts. */
  p50Ms: number | null;
  p95Ms: number | null;
  maxMs: number | null;
  /** Failed attempts by error code (null codes as 'UNKNOWN'), most frequent first then by code, at most `topErrors`. */
  errors: Array<{ code: string; count: number }>;
}

/** One provider's attempts in one UTC minute (only minutes with attempts are answered). */
export interface ProviderAttemptMinute {
  provider: string;
  minute: Date;
  attempts: number;
  failed: number;
  p95Ms: number | null;
}

/** Messages waiting for delivery on one channel, now (channels with none are not answered). */
export interface ChannelQueueFigures {
  channel: Channel;
  queued: number;
  pending: number;
  /** The creation time of the oldest QUEUED message; null when none is QUEUED. */
  oldestQueuedAt: Date | null;
}

/**
 * Cross-tenant delivery figures for platform administrators only (never reachable from a tenant
 * route): read from the delivery attempts and messages every process shares, unlike the per-process
 * Prometheus metrics. Read-only; no tenant scoping because the figures are per provider and channel.
 */
export interface ProviderMetricsRepository {
  /**
   * Attempts created in [from, to): per provider totals (ordered by provider name) and per provider
   * and minute (ordered by provider, then minute).
   */
  attempts(from: Date, to: Date, topErrors: number): Promise<{ providers: ProviderAttemptFigures[]; minutes: ProviderAttemptMinute[] }>;
  /** QUEUED and PENDING messages per channel now, ordered by channel. */
  queues(): Promise<ChannelQueueFigures[]>;
}
