import type { FanOut, FanOutPatch, FanOutRecipient } from '../domain/fan-out.ts';
import type { RunStatus, WorkflowRun, WorkflowStepRun, WorkflowVersion } from '../domain/workflow.ts';

export type RunPatch = Partial<Pick<WorkflowRun, 'status' | 'cursor' | 'attempts' | 'waitingFor' | 'signal' | 'digest' | 'error'>> & { updatedAt: Date };

/** A digest bucket: triggers for one (event, step, recipient, key) collected until `flushAt` or `maxItems`. */
export interface DigestBucket {
  id: string;
  organizationId: string;
  bucketKey: string;
  /** The run that flushes it (the first one to join). */
  ownerRunId: string;
  status: 'OPEN' | 'FLUSHED';
  itemCount: number;
  flushAt: Date;
  createdAt: Date;
}

/** An organization's acknowledgement of its failed-run alert: failures up to `through` are no longer alerted. */
export interface FailureAcknowledgement {
  organizationId: string;
  through: Date;
  userId: string | null;
  at: Date;
}

/** One trigger's variables collected into a bucket. */
export interface DigestItem { bucketId: string; runId: string; variables: Record<string, string>; at: Date }

/**
 * Workflow versions, runs, step runs, digest buckets and throttle windows. Tenant-scoped: every method
 * takes the organization first, except `lockRun`/`findRunForWorker` which the worker calls with a run id
 * from its own job.
 *
 * Exactly once (docs/adr/0044-workflow-exactly-once.md): `claimStep` inserts the (run, index) row or
 * answers false when it exists; `flushDigest` moves a bucket OPEN -> FLUSHED once; `takeThrottle`
 * counts under a row lock. Called inside `Storage.transaction`, they commit with the step's side effect.
 */
export interface WorkflowRepository {
  /** A new version; a version number already used for the event throws AppError CONFLICT. */
  insertVersion(version: WorkflowVersion): Promise<void>;
  latestVersion(organizationId: string, eventId: string): Promise<WorkflowVersion | null>;
  /** Newest first, at most `limit` (capped at 100). */
  listVersions(organizationId: string, eventId: string, limit: number): Promise<WorkflowVersion[]>;

  insertRun(run: WorkflowRun): Promise<void>;
  findRun(organizationId: string, id: string): Promise<WorkflowRun | null>;
  /** The run with its row locked until the transaction ends (FOR UPDATE); null when unknown. */
  lockRun(id: string): Promise<WorkflowRun | null>;
  updateRun(organizationId: string, id: string, patch: RunPatch): Promise<void>;
  /** Newest first, at most `limit` (capped at 100). */
  listRuns(organizationId: string, eventId: string, limit: number): Promise<WorkflowRun[]>;
  /** Active runs (RUNNING, WAITING) with this correlation key, at most `limit` (capped at 1000). */
  findActiveByKey(organizationId: string, correlationKey: string, limit: number): Promise<WorkflowRun[]>;

  /**
   * Serializes, until the transaction ends, every transaction that records an event for these wait keys
   * (`waitKeys`: a read, a reply, a click) with the wait step checking for it (an advisory lock per key on
   * PostgreSQL, taken in sorted order; the memory adapter's transactions already run one at a time). So an
   * event is either seen by the step's check or finds the run WAITING with the key and wakes it.
   */
  lockWaitKeys(organizationId: string, keys: readonly string[]): Promise<void>;
  /** Ids of the organization's WAITING runs whose `waitingFor` is one of `keys`, at most `limit` (capped at 1000). */
  findWaiting(organizationId: string, keys: readonly string[], limit: number): Promise<string[]>;
  /**
   * The batch path of delays (docs/adr/0044): of the given runs, those WAITING in a delay step whose step row
   * is WAITING with `resume_at <= dueBy` move past it (step DONE/RESUMED, cursor + 1, RUNNING or COMPLETED when
   * it was the last step), all in one statement; runs locked by another transaction are skipped. Answers the
   * runs moved with their new status.
   */
  resumeDueDelays(runIds: readonly string[], dueBy: Date, now: Date): Promise<Array<{ id: string; status: RunStatus }>>;
  /**
   * The delay resumer (docs/adr/0044, "Due delays"): claims at most `limit` WAITING delay steps with
   * `resume_at <= dueBy`, in resume-time order, locking their runs and skipping runs another transaction holds
   * (FOR UPDATE SKIP LOCKED: concurrent resumers take disjoint chunks), and in the same statement moves each run
   * WAITING at that step past it (step DONE/RESUMED, cursor + 1, RUNNING or COMPLETED when it was the last step).
   * A due step of a CANCELLED run is closed (DONE/CANCELLED) and not answered. Answers the runs moved.
   * Worker-scoped: no organization (the resumer serves every tenant).
   */
  resumeDueDelaySteps(dueBy: Date, now: Date, limit: number): Promise<Array<{ id: string; organizationId: string; status: RunStatus }>>;
  /**
   * The batch path (docs/adr/0044, "Digest joins in batches"): of these runs, the RUNNING ones, each row locked
   * until the transaction ends; a run another transaction holds is left out (SKIP LOCKED: its job runs it).
   */
  lockRunningRuns(runIds: readonly string[]): Promise<WorkflowRun[]>;
  /** Inserts many step runs; AppError CONFLICT (the transaction must roll back) when one (run, index) exists. */
  claimSteps(steps: readonly WorkflowStepRun[]): Promise<void>;
  /** Many runs' new status and cursor at once (attempts 0, error and waitingFor cleared). */
  moveRuns(organizationId: string, moves: ReadonlyArray<{ id: string; status: RunStatus; cursor: number }>, now: Date): Promise<void>;
  /** Inserts the step run; false (nothing written) when (runId, index) already exists. */
  claimStep(step: WorkflowStepRun): Promise<boolean>;
  findStep(organizationId: string, runId: string, index: number): Promise<WorkflowStepRun | null>;
  updateStep(organizationId: string, runId: string, index: number, patch: Partial<Pick<WorkflowStepRun, 'status' | 'outcome' | 'messageId' | 'triggerId' | 'resumeAt' | 'detail' | 'finishedAt'>>): Promise<void>;
  /** In index order (a run has at most 20 steps). */
  listSteps(organizationId: string, runId: string): Promise<WorkflowStepRun[]>;

  /**
   * Serializes every digest operation on this key until the transaction ends (an advisory lock on
   * PostgreSQL), then answers the key's most recent bucket (open or flushed), locked FOR UPDATE.
   */
  lockLatestBucket(organizationId: string, bucketKey: string): Promise<DigestBucket | null>;
  /**
   * `lockLatestBucket` for many keys at once: every key's lock, taken in one fixed order (so two batches never
   * deadlock), then each key's most recent bucket (keys without one are absent).
   */
  lockLatestBuckets(organizationId: string, bucketKeys: readonly string[]): Promise<Map<string, DigestBucket>>;
  /**
   * A batch of digest joins (each key locked by `lockLatestBuckets`): new buckets (with their item counts),
   * the items, and `grown` OPEN buckets' counts raised by their new items; AppError CONFLICT when one of
   * those is no longer OPEN (the transaction must roll back).
   */
  writeDigestJoins(organizationId: string, joins: { buckets: readonly DigestBucket[]; items: readonly DigestItem[]; grown: ReadonlyArray<{ bucketId: string; added: number }> }): Promise<void>;
  /** A new bucket (OPEN, or FLUSHED as the look-back marker of a trigger that went at once). */
  openBucket(bucket: DigestBucket): Promise<void>;
  /** Adds a run's variables to an OPEN bucket and counts it; answers the new count. */
  addDigestItem(organizationId: string, bucketId: string, runId: string, variables: Record<string, string>, at: Date): Promise<number>;
  /** OPEN -> FLUSHED: true for exactly one caller; the items (at most `limit`, in arrival order) are returned with it. */
  flushDigest(organizationId: string, bucketId: string, limit: number): Promise<{ flushed: boolean; items: Array<Record<string, string>> }>;

  /** One more in the (key, window) counter when below `limit`; false when the window is full. */
  takeThrottle(organizationId: string, key: string, windowStart: Date, limit: number): Promise<boolean>;

  /**
   * FAILED runs that failed (their `updatedAt`) at or after `since`, the latest failure first (then id descending),
   * after the keyset `before` when given; at most `limit` (capped at 100).
   */
  listFailedRuns(organizationId: string, since: Date, before: { at: Date; id: string } | null, limit: number): Promise<WorkflowRun[]>;
  /** How many runs failed after `after` (strictly), counting at most `cap`. */
  countFailedRuns(organizationId: string, after: Date, cap: number): Promise<number>;
  findFailureAcknowledgement(organizationId: string): Promise<FailureAcknowledgement | null>;
  /** Stores the acknowledgement; `through` never moves back (the later of the stored and the new one is kept). Answers the stored one. */
  acknowledgeFailures(ack: FailureAcknowledgement): Promise<FailureAcknowledgement>;
  /** Fan-outs (docs/workflows.md, "Fan-out"; docs/adr/0048-fan-out-exactly-once.md). */
  insertFanOut(fanOut: FanOut): Promise<void>;
  findFanOut(organizationId: string, id: string): Promise<FanOut | null>;
  /** The fan-out with its row locked until the transaction ends (FOR UPDATE): pages of one fan-out never run concurrently. */
  lockFanOut(organizationId: string, id: string): Promise<FanOut | null>;
  updateFanOut(organizationId: string, id: string, patch: FanOutPatch): Promise<void>;
  /**
   * Records each (fan-out, contact) once: inserts the recipients not recorded yet and answers their contact ids
   * (in the order given); a contact already recorded (an earlier attempt of the job) is left as it was. A
   * concurrent transaction recording the same contact waits for this one and then records nothing.
   */
  claimFanOutRecipients(organizationId: string, fanOutId: string, recipients: readonly FanOutRecipient[]): Promise<string[]>;
  /** Recipients recorded with a contact id in (`afterContactId`, `upToContactId`] (null: from the start): one page's outcome. */
  countFanOutRecipients(organizationId: string, fanOutId: string, afterContactId: string | null, upToContactId: string): Promise<{ started: number; skipped: number }>;
}

export type { RunStatus };
