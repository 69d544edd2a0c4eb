/**
 * A fan-out (docs/workflows.md, "Fan-out"): one `POST /events/trigger` to a segment or a topic, streamed by the
 * worker in keyset pages into one workflow run (an event with a workflow) or one event trigger (an event without
 * one) per recipient. Each (fan-out, contact) is recorded once (docs/adr/0048-fan-out-exactly-once.md).
 */
export type FanOutStatus = 'RUNNING' | 'COMPLETED' | 'FAILED';
/** RUNS: the event had a workflow when the fan-out was accepted; TRIGGERS: it had none (one plain trigger each). */
export type FanOutKind = 'RUNS' | 'TRIGGERS';

/** The bounds every plan has today (one plan, payg: docs/billing.md); docs/workflows.md, "Fan-out". */
export const FAN_OUT_LIMITS = {
  /** Recipients one fan-out may address (counted when it is accepted): larger audiences are LIMIT_REACHED. */
  recipients: 1_000_000,
  /** Contacts read per page (one transaction for runs). */
  batch: 500,
  /** Pages one job run handles before it re-enqueues itself (well inside the queue's 5-minute expiry). */
  batchesPerRun: 100,
} as const;

/** A topic is the contacts carrying this tag (docs/workflows.md): a contact tag, at most 50 characters, compared lowercased. */
export const TOPIC_MAX = 50;

export interface FanOutRequest {
  variables: Record<string, string>;
  correlationKey: string | null;
}

export interface FanOut {
  id: string;
  organizationId: string;
  eventId: string;
  eventSlug: string;
  kind: FanOutKind;
  segmentId: string | null;
  topic: string | null;
  request: FanOutRequest;
  status: FanOutStatus;
  /** The last contact id handed over (keyset cursor); null before the first page. */
  cursor: string | null;
  /** Contacts in the audience when the fan-out was accepted. */
  total: number;
  /** Contacts handed over so far (started + skipped). */
  processed: number;
  /** Runs (RUNS) or triggers (TRIGGERS) created. */
  started: number;
  /** Contacts skipped: opted out, suppressed, unreachable, a variable missing. */
  skipped: number;
  failureReason: string | null;
  apiKeyId: string | null;
  userId: string | null;
  isSandbox: boolean;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
}

export type FanOutPatch = Partial<Pick<FanOut, 'status' | 'cursor' | 'processed' | 'started' | 'skipped' | 'failureReason' | 'completedAt'>> & { updatedAt: Date };

/** One contact of a fan-out: the run or trigger it got, or why it was skipped. */
export interface FanOutRecipient {
  contactId: string;
  runId: string | null;
  triggerId: string | null;
  skipReason: string | null;
}

export function fanOutView(f: FanOut): Record<string, unknown> {
  const percent = f.total > 0 ? Math.min(100, Math.floor((f.processed * 100) / f.total)) : f.status === 'COMPLETED' ? 100 : 0;
  return {
    id: f.id, event: f.eventSlug, eventId: f.eventId, kind: f.kind, segmentId: f.segmentId, topic: f.topic, status: f.status,
    correlationKey: f.request.correlationKey, total: f.total, started: f.started, skipped: f.skipped,
    progress: { total: Math.max(f.total, f.processed), processed: f.processed, started: f.started, skipped: f.skipped, percent },
    failureReason: f.failureReason, createdAt: f.createdAt.toISOString(), updatedAt: f.updatedAt.toISOString(),
    completedAt: f.completedAt ? f.completedAt.toISOString() : null,
  };
}
