import type { Channel } from './channel.ts';

/**
 * Workflows (docs/workflows.md): an event's ordered list of steps, versioned. A run copies the steps of
 * the version it started with, so a later version never changes a running instance.
 */

/** Where a branch or a wait goes: the next step, the end of the run, or a later step (forward only: no loops). */
export type StepTarget = 'next' | 'end' | { goTo: number };

/** A small safe expression: comparisons on dotted paths, combined with all/any/not. Never evaluated as code. */
export type WorkflowCondition =
  | { all: WorkflowCondition[] }
  | { any: WorkflowCondition[] }
  | { not: WorkflowCondition }
  | { path: string; op: WorkflowConditionOp; value?: string | number | boolean | Array<string | number> | undefined };

export const WORKFLOW_CONDITION_OPS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'exists', 'contains'] as const;
export type WorkflowConditionOp = (typeof WORKFLOW_CONDITION_OPS)[number];

export type WorkflowStep =
  | { type: 'send'; channels: Channel[]; fallbackChannels: Channel[]; templateId: string | null }
  | { type: 'delay'; seconds?: number | undefined; untilVariable?: string | undefined; untilSendWindow?: boolean | undefined }
  | { type: 'digest'; windowSeconds: number; maxItems: number; keyVariable?: string | undefined; lookBack: boolean; itemVariable?: string | undefined }
  | { type: 'throttle'; limit: number; windowSeconds: number; keyVariable?: string | undefined }
  | { type: 'branch'; if: WorkflowCondition; then: StepTarget; else: StepTarget }
  | { type: 'wait'; for: WaitFor; event?: string | undefined; timeoutSeconds: number; onEvent: StepTarget; onTimeout: StepTarget };

/**
 * What a `wait` step waits for: a later trigger, a delivery report, or (of the latest send step's message, its
 * trigger's fallbacks included) a read in the in-app inbox, a reply from the recipient's phone, a click on a tracked link.
 */
export const WAIT_FOR = ['trigger', 'delivery', 'read', 'reply', 'click'] as const;
export type WaitFor = (typeof WAIT_FOR)[number];
/** The waits a recorded event wakes (the inbox, the inbound webhook, the link redirect): they need a send step before them. */
export const EVENT_WAITS: readonly WaitFor[] = ['read', 'reply', 'click'];

/**
 * The `waitingFor` key of a run waiting for a read, a reply or a click: what the place that records the event
 * looks runs up by (with the organization). Never a slug: slugs have no ':'.
 */
export const waitKeys = {
  read: (subscriberId: string) => `read:${subscriberId}`,
  reply: (phoneE164: string) => `reply:${phoneE164}`,
  click: (triggerId: string) => `click:${triggerId}`,
} as const;

export type StepType = WorkflowStep['type'];

/** The bounds every plan has today (docs/workflows.md, "Limits"). */
export const WORKFLOW_LIMITS = {
  steps: 20,
  delaySeconds: 35 * 86_400,
  digestWindowSeconds: 86_400,
  digestItems: 1_000,
  waitSeconds: 35 * 86_400,
  throttleWindowSeconds: 7 * 86_400,
  retryAttempts: 10,
} as const;

/** Retry of a failed step (an error that is not the send's own verdict): attempts in all, backoff doubling. */
export interface WorkflowRetry { attempts: number; backoffSeconds: number }
export const DEFAULT_WORKFLOW_RETRY: WorkflowRetry = { attempts: 3, backoffSeconds: 30 };

export interface WorkflowVersion {
  id: string;
  organizationId: string;
  eventId: string;
  version: number;
  steps: WorkflowStep[];
  /** Event slugs whose trigger with the same correlationKey cancels this workflow's active runs. */
  cancelOn: string[];
  retry: WorkflowRetry;
  createdAt: Date;
}

export type RunStatus = 'RUNNING' | 'WAITING' | 'COMPLETED' | 'CANCELLED' | 'FAILED';
export const ACTIVE_RUN_STATUSES: readonly RunStatus[] = ['RUNNING', 'WAITING'];

/** Who the run is for and with what: the trigger request, kept for every step. */
export interface RunRequest {
  to: string | null;
  contactId: string | null;
  subscriberId: string | null;
  countryCode: string;
  variables: Record<string, string>;
}

export interface WorkflowRun {
  id: string;
  organizationId: string;
  eventId: string;
  eventSlug: string;
  version: number;
  steps: WorkflowStep[];
  cancelOn: string[];
  retry: WorkflowRetry;
  request: RunRequest;
  correlationKey: string | null;
  status: RunStatus;
  /** Index of the step to run next. */
  cursor: number;
  /** Failed attempts of the current step. */
  attempts: number;
  /** The event slug a `wait for trigger` step waits on, while it waits. */
  waitingFor: string | null;
  /** A later trigger received while waiting (the wait step's signal). */
  signal: { event: string; at: string; variables: Record<string, string> } | null;
  /** Items a digest collected for this run to send (the flushing run only). */
  digest: { count: number; items: Array<Record<string, string>> } | null;
  error: { code: string; message: string } | null;
  apiKeyId: string | null;
  userId: string | null;
  isSandbox: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export type StepRunStatus = 'WAITING' | 'DONE' | 'FAILED';

/** One step's execution, unique per (run, index): the claim that makes its side effect happen once. */
export interface WorkflowStepRun {
  runId: string;
  organizationId: string;
  index: number;
  type: StepType;
  status: StepRunStatus;
  /** SENT, DELAYED, DIGESTED, FLUSHED, PASSED, THROTTLED, TRUE, FALSE, EVENT, TIMEOUT, FAILED ... */
  outcome: string | null;
  messageId: string | null;
  triggerId: string | null;
  resumeAt: Date | null;
  detail: Record<string, unknown>;
  startedAt: Date;
  finishedAt: Date | null;
}

/** Resolves a dotted path against the run's context: payload.*, contact.*, steps.<index>.outcome. */
export function resolvePath(context: Record<string, unknown>, path: string): unknown {
  let value: unknown = context;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function compare(a: unknown, b: unknown): number | null {
  const x = typeof a === 'string' && a.trim() !== '' && !Number.isNaN(Number(a)) ? Number(a) : a;
  const y = typeof b === 'string' && b.trim() !== '' && !Number.isNaN(Number(b)) ? Number(b) : b;
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  if (typeof x === 'string' && typeof y === 'string') return x < y ? -1 : x > y ? 1 : 0;
  return null;
}

/** Evaluates a condition (depth bounded by validation); an absent path compares false except for `exists`. */
export function evaluateCondition(condition: WorkflowCondition, context: Record<string, unknown>): boolean {
  if ('all' in condition) return condition.all.every((c) => evaluateCondition(c, context));
  if ('any' in condition) return condition.any.some((c) => evaluateCondition(c, context));
  if ('not' in condition) return !evaluateCondition(condition.not, context);
  const actual = resolvePath(context, condition.path);
  const expected = condition.value;
  if (condition.op === 'exists') return (actual !== undefined && actual !== null) === (expected !== false);
  if (actual === undefined || actual === null) return condition.op === 'ne';
  switch (condition.op) {
    case 'eq': return compare(actual, expected) === 0 || String(actual) === String(expected);
    case 'ne': return !(compare(actual, expected) === 0 || String(actual) === String(expected));
    case 'in': return Array.isArray(expected) && expected.some((e) => String(e) === String(actual));
    case 'contains': return Array.isArray(actual) ? actual.map(String).includes(String(expected)) : String(actual).includes(String(expected));
    default: {
      const c = compare(actual, expected);
      if (c === null) return false;
      return condition.op === 'gt' ? c > 0 : condition.op === 'gte' ? c >= 0 : condition.op === 'lt' ? c < 0 : c <= 0;
    }
  }
}

/** The index a target leads to from step `index`; `steps.length` ends the run. */
export function targetIndex(target: StepTarget, index: number, stepCount: number): number {
  if (target === 'next') return index + 1;
  if (target === 'end') return stepCount;
  return target.goTo;
}

/** The digest/throttle key of a run: its recipient plus the value of a variable (or the whole recipient). */
export function recipientKey(request: RunRequest): string {
  return request.contactId ? `contact:${request.contactId}` : request.to ? `to:${request.to}` : `subscriber:${request.subscriberId ?? ''}`;
}

/** Lines a digest's template sees as `digestItems`: one per collected trigger. */
export function digestLines(items: ReadonlyArray<Record<string, string>>, itemVariable: string | undefined): string {
  return items.map((item) => (itemVariable ? item[itemVariable] ?? '' : Object.entries(item).map(([k, v]) => `${k}: ${v}`).join(', '))).join('\n');
}
