/** One (country, network, provider) row of an organization's sends in a period (docs/routing.md, "Analytics"). */
export interface NetworkFigures {
  country: string;
  network: string;
  /** The provider that took the messages; null for those no provider took (rejected, failed before sending). */
  provider: string | null;
  messages: number;
  delivered: number;
  failed: number;
  /** Pesewas charged (refunds excluded). */
  cost: number;
  /** Milliseconds from sent to delivered, over delivered messages; null without any. */
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
}

/**
 * Per-network figures of one organization's live (non-sandbox) messages created in [from, to), for
 * messages whose network is known. Tenant-scoped: only `organizationId`'s messages. At most
 * MAX_NETWORK_FIGURES rows, most messages first.
 */
export interface NetworkAnalyticsRepository {
  byNetwork(organizationId: string, from: Date, to: Date): Promise<NetworkFigures[]>;
}

export const MAX_NETWORK_FIGURES = 500;
