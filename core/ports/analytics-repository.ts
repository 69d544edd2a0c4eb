import type { Channel, DeliveryStatus } from '../domain/channel.ts';
import type { LedgerEntry } from '../domain/wallet.ts';

/**
 * Messages of one UTC day, channel and status: count, segments and charged cost (pesewas, net of
 * refunds). PENDING (a delivery under way) is counted as QUEUED: both mean "not sent yet".
 */
export interface DailyMessageTotal {
  /** YYYY-MM-DD (UTC). */
  day: string;
  channel: Channel;
  status: Exclude<DeliveryStatus, 'PENDING'>;
  messages: number;
  segments: number;
  cost: number;
  /** Of `messages`, those handled by one of the `outboxProviders` given (written locally, never delivered). */
  outbox: number;
}

/** Ledger amounts of one UTC day and kind (signed pesewas: debits negative). */
export interface DailyLedgerTotal {
  day: string;
  kind: LedgerEntry['kind'];
  amount: number;
  entries: number;
}

export interface ProviderOutcomeTotal {
  provider: string;
  /** SENT + DELIVERED. */
  accepted: number;
  failed: number;
}

export interface Ucs2Message {
  body: string;
  segments: number;
  cost: number;
}

export interface TemplateUsage {
  templateId: string;
  channel: Channel;
  country: string | null;
  messages: number;
  cost: number;
}

/**
 * Aggregates over an organization's delivery logs and ledger for analytics. Tenant-scoped: every
 * method takes the organization first. Times are half-open [from, to) and days are UTC; `dailyMessages`,
 * `dailyLedger` and `providerOutcomes` count by creation day, so their `from` and `to` must be UTC midnights.
 */
export interface AnalyticsRepository {
  dailyMessages(organizationId: string, from: Date, to: Date, outboxProviders?: readonly string[]): Promise<DailyMessageTotal[]>;
  dailyLedger(organizationId: string, from: Date, to: Date): Promise<DailyLedgerTotal[]>;
  /** Outcomes per provider of messages created in the window (only messages a provider was tried for). */
  providerOutcomes(organizationId: string, from: Date, to: Date): Promise<ProviderOutcomeTotal[]>;
  /** Charged SMS sent as UCS-2 in the window, newest first, at most `limit` (capped at 5000). */
  ucs2Sms(organizationId: string, from: Date, to: Date, limit: number): Promise<Ucs2Message[]>;
  /** Charged messages per template, channel and country in the window, most used first, at most `limit` (capped at 20). */
  templateUsage(organizationId: string, from: Date, to: Date, limit: number): Promise<TemplateUsage[]>;
}
