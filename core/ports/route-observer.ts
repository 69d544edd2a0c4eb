import type { MobileNetwork } from '../domain/mobile-network.ts';

/**
 * What delivery tells routing (docs/routing.md, "Learning"): a message to a known network accepted by a
 * provider, and its delivery report. Called on the send path: implementations count in memory and
 * persist in batches (never a statement per message). Never throws.
 */
export interface RouteObserver {
  sent(provider: string, network: MobileNetwork, at: Date): void;
  /** `sentAt` places the report in its send's bucket; `delivered` false: a final failure. */
  reported(provider: string, network: MobileNetwork, sentAt: Date, reportedAt: Date, delivered: boolean): void;
}
