import type { EntityManager } from '@mikro-orm/sql';
import { AppError } from '../../core/errors.ts';
import type { RunStatus, StepRunStatus, StepType, WorkflowRun, WorkflowStepRun, WorkflowVersion } from '../../core/domain/workflow.ts';
import type { DigestBucket, DigestItem, FailureAcknowledgement, RunPatch, WorkflowRepository } from '../../core/ports/workflow-repository.ts';
import type { FanOut, FanOutPatch, FanOutRecipient } from '../../core/domain/fan-out.ts';
import { isUniqueViolation } from './db-errors.ts';
import { sqlFanOuts } from './sql-fan-out-queries.ts';
import { sqlRows, toDate } from './sql-rows.ts';

type Row = Record<string, unknown>;
const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) as T : value as T);

function toVersion(r: Row): WorkflowVersion {
  return {
    id: r['id'] as string, organizationId: r['organization_id'] as string, eventId: r['event_id'] as string, version: Number(r['version']),
    steps: json(r['steps']), cancelOn: json(r['cancel_on']), retry: json(r['retry']), createdAt: toDate(r['created_at'] as Date)!,
  };
}

function toRun(r: Row): WorkflowRun {
  return {
    id: r['id'] as string, organizationId: r['organization_id'] as string, eventId: r['event_id'] as string, eventSlug: r['event_slug'] as string,
    version: Number(r['version']), steps: json(r['steps']), cancelOn: json(r['cancel_on']), retry: json(r['retry']), request: json(r['request']),
    correlationKey: r['correlation_key'] as string | null, status: r['status'] as RunStatus, cursor: Number(r['cursor']), attempts: Number(r['attempts']),
    waitingFor: r['waiting_for'] as string | null, signal: json(r['signal']) ?? null, digest: json(r['digest']) ?? null, error: json(r['error']) ?? null,
    apiKeyId: r['api_key_id'] as string | null, userId: r['user_id'] as string | null, isSandbox: r['is_sandbox'] as boolean,
    createdAt: toDate(r['created_at'] as Date)!, updatedAt: toDate(r['updated_at'] as Date)!,
  };
}

function toStep(r: Row): WorkflowStepRun {
  return {
    runId: r['run_id'] as string, organizationId: r['organization_id'] as string, index: Number(r['step_index']), type: r['type'] as StepType,
    status: r['status'] as StepRunStatus, outcome: r['outcome'] as string | null, messageId: r['message_id'] as string | null,
    triggerId: r['trigger_id'] as string | null, resumeAt: toDate(r['resume_at'] as Date | null), detail: json(r['detail']),
    startedAt: toDate(r['started_at'] as Date)!, finishedAt: toDate(r['finished_at'] as Date | null),
  };
}

function toBucket(r: Row): DigestBucket {
  return {
    id: r['id'] as string, organizationId: r['organization_id'] as string, bucketKey: r['bucket_key'] as string, ownerRunId: r['owner_run_id'] as string,
    status: r['status'] as DigestBucket['status'], itemCount: Number(r['item_count']), flushAt: toDate(r['flush_at'] as Date)!, createdAt: toDate(r['created_at'] as Date)!,
  };
}

const RUN_COLUMNS: Record<keyof RunPatch, [string, boolean]> = {
  status: ['status', false], cursor: ['cursor', false], attempts: ['attempts', false], waitingFor: ['waiting_for', false],
  signal: ['signal', true], digest: ['digest', true], error: ['error', true], updatedAt: ['updated_at', false],
};
const STEP_COLUMNS: Record<string, [string, boolean]> = {
  status: ['status', false], outcome: ['outcome', false], messageId: ['message_id', false], triggerId: ['trigger_id', false],
  resumeAt: ['resume_at', false], detail: ['detail', true], finishedAt: ['finished_at', false],
};

function setClause(patch: Record<string, unknown>, columns: Record<string, [string, boolean]>, params: unknown[]): string {
  const sets: string[] = [];
  for (const [key, value] of Object.entries(patch)) {
    const column = columns[key];
    if (!column || value === undefined) continue;
    params.push(column[1] ? (value === null ? null : JSON.stringify(value)) : value);
    sets.push(`${column[0]} = $${params.length}${column[1] ? '::jsonb' : ''}`);
  }
  return sets.join(', ');
}

export class SqlWorkflowRepository implements WorkflowRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async insertVersion(v: WorkflowVersion): Promise<void> {
    try {
      await sqlRows(this.#em, `insert into workflow_versions (id, organization_id, event_id, version, steps, cancel_on, retry, created_at)
        values ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7::jsonb, $8)`,
      [v.id, v.organizationId, v.eventId, v.version, JSON.stringify(v.steps), JSON.stringify(v.cancelOn), JSON.stringify(v.retry), v.createdAt]);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('CONFLICT', 'This workflow version already exists');
      throw error;
    }
  }

  async latestVersion(organizationId: string, eventId: string): Promise<WorkflowVersion | null> {
    return (await this.listVersions(organizationId, eventId, 1))[0] ?? null;
  }

  async listVersions(organizationId: string, eventId: string, limit: number): Promise<WorkflowVersion[]> {
    const rows = await sqlRows<Row>(this.#em, `select * from workflow_versions where organization_id = $1 and event_id = $2 order by version desc limit $3`,
      [organizationId, eventId, Math.min(limit, 100)], { prepare: true });
    return rows.map(toVersion);
  }

  async insertRun(r: WorkflowRun): Promise<void> {
    await sqlRows(this.#em, `insert into workflow_runs (id, organization_id, event_id, event_slug, version, steps, cancel_on, retry, request, correlation_key,
      status, cursor, attempts, waiting_for, signal, digest, error, api_key_id, user_id, is_sandbox, created_at, updated_at)
      values ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8::jsonb, $9::jsonb, $10, $11, $12, $13, $14, $15::jsonb, $16::jsonb, $17::jsonb, $18, $19, $20, $21, $22)`,
    [r.id, r.organizationId, r.eventId, r.eventSlug, r.version, JSON.stringify(r.steps), JSON.stringify(r.cancelOn), JSON.stringify(r.retry),
      JSON.stringify(r.request), r.correlationKey, r.status, r.cursor, r.attempts, r.waitingFor, r.signal ? JSON.stringify(r.signal) : null,
      r.digest ? JSON.stringify(r.digest) : null, r.error ? JSON.stringify(r.error) : null, r.apiKeyId, r.userId, r.isSandbox, r.createdAt, r.updatedAt], { prepare: true });
  }

  async findRun(organizationId: string, id: string): Promise<WorkflowRun | null> {
    const rows = await sqlRows<Row>(this.#em, 'select * from workflow_runs where organization_id = $1 and id = $2', [organizationId, id], { prepare: true });
    return rows[0] ? toRun(rows[0]) : null;
  }

  async lockRun(id: string): Promise<WorkflowRun | null> {
    const rows = await sqlRows<Row>(this.#em, 'select * from workflow_runs where id = $1 for update', [id], { prepare: true });
    return rows[0] ? toRun(rows[0]) : null;
  }

  async updateRun(organizationId: string, id: string, patch: RunPatch): Promise<void> {
    const params: unknown[] = [organizationId, id];
    const sets = setClause(patch, RUN_COLUMNS, params);
    if (sets) await sqlRows(this.#em, `update workflow_runs set ${sets} where organization_id = $1 and id = $2`, params);
  }

  async listRuns(organizationId: string, eventId: string, limit: number): Promise<WorkflowRun[]> {
    const rows = await sqlRows<Row>(this.#em, `select * from workflow_runs where organization_id = $1 and event_id = $2 order by created_at desc, id desc limit $3`,
      [organizationId, eventId, Math.min(limit, 100)]);
    return rows.map(toRun);
  }

  async findActiveByKey(organizationId: string, correlationKey: string, limit: number): Promise<WorkflowRun[]> {
    const rows = await sqlRows<Row>(this.#em, `select * from workflow_runs where organization_id = $1 and correlation_key = $2
      and status in ('RUNNING','WAITING') order by created_at limit $3`, [organizationId, correlationKey, Math.min(limit, 1000)]);
    return rows.map(toRun);
  }

  async lockWaitKeys(organizationId: string, keys: readonly string[]): Promise<void> {
    for (const key of [...new Set(keys)].sort()) {
      await sqlRows(this.#em, 'select pg_advisory_xact_lock(hashtextextended($1, 37))', [`${organizationId} ${key}`], { prepare: true });
    }
  }

  async findWaiting(organizationId: string, keys: readonly string[], limit: number): Promise<string[]> {
    if (keys.length === 0) return [];
    const rows = await sqlRows<{ id: string }>(this.#em, `select id from workflow_runs where organization_id = $1 and waiting_for = any($2::text[])
      and status = 'WAITING' order by id limit $3`, [organizationId, [...keys], Math.max(0, Math.min(limit, 1000))], { prepare: true });
    return rows.map((r) => r.id);
  }

  async resumeDueDelays(runIds: readonly string[], dueBy: Date, now: Date): Promise<Array<{ id: string; status: RunStatus }>> {
    if (runIds.length === 0) return [];
    const rows = await sqlRows<{ id: string; status: RunStatus }>(this.#em, `with due as (
        select r.id, r.cursor from workflow_runs r join workflow_step_runs s on s.run_id = r.id and s.step_index = r.cursor
        where r.id = any($1::text[]) and r.status = 'WAITING' and s.type = 'delay' and s.status = 'WAITING' and s.resume_at <= $2
        order by r.id for update of r skip locked),
      steps as (update workflow_step_runs s set status = 'DONE', outcome = 'RESUMED', finished_at = $3
        from due where s.run_id = due.id and s.step_index = due.cursor returning s.run_id)
      update workflow_runs r set cursor = r.cursor + 1, attempts = 0, error = null, updated_at = $3,
        status = case when r.cursor + 1 >= jsonb_array_length(r.steps) then 'COMPLETED' else 'RUNNING' end
      from due where r.id = due.id and r.id in (select run_id from steps) returning r.id, r.status`, [[...new Set(runIds)], dueBy, now]);
    return rows;
  }

  async resumeDueDelaySteps(dueBy: Date, now: Date, limit: number): Promise<Array<{ id: string; organizationId: string; status: RunStatus }>> {
    // 1. Claim: the partial index workflow_step_runs_due_delays (migration 0070) yields the due steps in order; each
    // step row and its run are locked (SKIP LOCKED: a run a step job or another resumer holds is left to it, and rows
    // changed since the snapshot are re-checked against the conditions once locked).
    const due = await sqlRows<{ step_row: string; run_row: string; run_status: RunStatus }>(this.#em, `select s.ctid::text as step_row, r.ctid::text as run_row,
        r.status as run_status from workflow_step_runs s join workflow_runs r on r.id = s.run_id
      where s.status = 'WAITING' and s.type = 'delay' and s.resume_at <= $1
        and ((r.status = 'WAITING' and r.cursor = s.step_index) or r.status in ('CANCELLED', 'COMPLETED', 'FAILED'))
      order by s.resume_at limit $2 for update of s, r skip locked`, [dueBy, Math.max(1, Math.min(limit, 50_000))]);
    if (due.length === 0) return [];
    // 2. Move (a new statement, so its snapshot sees the locked row versions; our locks keep their ctids): the step
    // and its run together (the run only with its step: a belt, the locks already guarantee it); a due step of an
    // ended run (cancelled) is closed.
    const resumes = due.filter((d) => d.run_status === 'WAITING');
    const closes = due.filter((d) => d.run_status !== 'WAITING');
    return sqlRows<{ id: string; organizationId: string; status: RunStatus }>(this.#em, `with resumed as (
        update workflow_step_runs set status = 'DONE', outcome = 'RESUMED', finished_at = $3 where ctid = any($1::tid[]) and status = 'WAITING' returning run_id),
      closed as (update workflow_step_runs s set status = 'DONE', finished_at = $3, outcome = case when r.status = 'CANCELLED' then 'CANCELLED' else 'ENDED' end
        from workflow_runs r where s.ctid = any($4::tid[]) and r.id = s.run_id)
      update workflow_runs r set cursor = r.cursor + 1, attempts = 0, error = null, updated_at = $3,
        status = case when r.cursor + 1 >= jsonb_array_length(r.steps) then 'COMPLETED' else 'RUNNING' end
      where r.ctid = any($2::tid[]) and r.id in (select run_id from resumed) returning r.id, r.organization_id as "organizationId", r.status`,
    [resumes.map((d) => d.step_row), resumes.map((d) => d.run_row), now, closes.map((d) => d.step_row)]);
  }

  async lockRunningRuns(runIds: readonly string[]): Promise<WorkflowRun[]> {
    if (runIds.length === 0) return [];
    const rows = await sqlRows<Row>(this.#em, `select * from workflow_runs where id = any($1::text[]) and status = 'RUNNING' order by id for update skip locked`,
      [[...new Set(runIds)]]);
    return rows.map(toRun);
  }

  async claimSteps(steps: readonly WorkflowStepRun[]): Promise<void> {
    if (steps.length === 0) return;
    try {
      await sqlRows(this.#em, `insert into workflow_step_runs (run_id, step_index, organization_id, type, status, outcome, message_id, trigger_id, resume_at, detail, started_at, finished_at)
        select * from unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::timestamptz[], $10::jsonb[], $11::timestamptz[], $12::timestamptz[])`,
      [steps.map((s) => s.runId), steps.map((s) => s.index), steps.map((s) => s.organizationId), steps.map((s) => s.type), steps.map((s) => s.status),
        steps.map((s) => s.outcome), steps.map((s) => s.messageId), steps.map((s) => s.triggerId), steps.map((s) => s.resumeAt), steps.map((s) => JSON.stringify(s.detail)),
        steps.map((s) => s.startedAt), steps.map((s) => s.finishedAt)]);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('CONFLICT', 'A step run already exists');
      throw error;
    }
  }

  async moveRuns(organizationId: string, moves: ReadonlyArray<{ id: string; status: RunStatus; cursor: number }>, now: Date): Promise<void> {
    if (moves.length === 0) return;
    // `id = any(...)` and array_position, not a join with unnest: one pass whatever the (often stale) statistics of a fast-growing table.
    await sqlRows(this.#em, `update workflow_runs r set status = ($3::text[])[array_position($2::text[], r.id)], cursor = ($5::int[])[array_position($2::text[], r.id)],
      attempts = 0, error = null, waiting_for = null, updated_at = $4 where r.organization_id = $1 and r.id = any($2::text[])`,
    [organizationId, moves.map((m) => m.id), moves.map((m) => m.status), now, moves.map((m) => m.cursor)]);
  }

  async claimStep(s: WorkflowStepRun): Promise<boolean> {
    const rows = await sqlRows(this.#em, `insert into workflow_step_runs (run_id, step_index, organization_id, type, status, outcome, message_id, trigger_id,
      resume_at, detail, started_at, finished_at) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12)
      on conflict (run_id, step_index) do nothing returning run_id`,
    [s.runId, s.index, s.organizationId, s.type, s.status, s.outcome, s.messageId, s.triggerId, s.resumeAt, JSON.stringify(s.detail), s.startedAt, s.finishedAt], { prepare: true });
    return rows.length === 1;
  }

  async findStep(organizationId: string, runId: string, index: number): Promise<WorkflowStepRun | null> {
    const rows = await sqlRows<Row>(this.#em, 'select * from workflow_step_runs where organization_id = $1 and run_id = $2 and step_index = $3',
      [organizationId, runId, index], { prepare: true });
    return rows[0] ? toStep(rows[0]) : null;
  }

  async updateStep(organizationId: string, runId: string, index: number, patch: Partial<WorkflowStepRun>): Promise<void> {
    const params: unknown[] = [organizationId, runId, index];
    const sets = setClause(patch, STEP_COLUMNS, params);
    if (sets) await sqlRows(this.#em, `update workflow_step_runs set ${sets} where organization_id = $1 and run_id = $2 and step_index = $3`, params);
  }

  async listSteps(organizationId: string, runId: string): Promise<WorkflowStepRun[]> {
    const rows = await sqlRows<Row>(this.#em, 'select * from workflow_step_runs where organization_id = $1 and run_id = $2 order by step_index limit 100',
      [organizationId, runId]);
    return rows.map(toStep);
  }

  async lockLatestBucket(organizationId: string, bucketKey: string): Promise<DigestBucket | null> {
    await sqlRows(this.#em, 'select pg_advisory_xact_lock(hashtextextended($1, 31))', [`${organizationId} ${bucketKey}`], { prepare: true });
    const rows = await sqlRows<Row>(this.#em, `select * from workflow_digest_buckets where organization_id = $1 and bucket_key = $2
      order by created_at desc, id desc limit 1 for update`, [organizationId, bucketKey], { prepare: true });
    return rows[0] ? toBucket(rows[0]) : null;
  }

  async lockLatestBuckets(organizationId: string, bucketKeys: readonly string[]): Promise<Map<string, DigestBucket>> {
    const keys = [...new Set(bucketKeys)];
    if (keys.length === 0) return new Map();
    // The same advisory lock as lockLatestBucket, taken in hash order (the subquery's order is the locking order).
    await sqlRows(this.#em, `select pg_advisory_xact_lock(h) from (select hashtextextended($1 || ' ' || k, 31) as h from unnest($2::text[]) k
      group by 1 order by 1 offset 0) locks`, [organizationId, keys]);
    const rows = await sqlRows<Row>(this.#em, `select distinct on (bucket_key) * from workflow_digest_buckets where organization_id = $1 and bucket_key = any($2::text[])
      order by bucket_key, created_at desc, id desc`, [organizationId, keys]);
    return new Map(rows.map((r) => [r['bucket_key'] as string, toBucket(r)]));
  }

  async writeDigestJoins(organizationId: string, joins: { buckets: readonly DigestBucket[]; items: readonly DigestItem[]; grown: ReadonlyArray<{ bucketId: string; added: number }> }): Promise<void> {
    if (joins.grown.length > 0) {
      const rows = await sqlRows(this.#em, `update workflow_digest_buckets b set item_count = b.item_count + ($3::int[])[array_position($2::text[], b.id)]
        where b.organization_id = $1 and b.id = any($2::text[]) and b.status = 'OPEN' returning b.id`, [organizationId, joins.grown.map((g) => g.bucketId), joins.grown.map((g) => g.added)]);
      if (rows.length !== joins.grown.length) throw new AppError('CONFLICT', 'The digest bucket is not open');
    }
    const { buckets, items } = joins;
    if (buckets.length > 0) {
      await sqlRows(this.#em, `insert into workflow_digest_buckets (id, organization_id, bucket_key, owner_run_id, status, item_count, flush_at, created_at)
        select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::timestamptz[], $8::timestamptz[])`,
      [buckets.map((b) => b.id), buckets.map((b) => b.organizationId), buckets.map((b) => b.bucketKey), buckets.map((b) => b.ownerRunId), buckets.map((b) => b.status),
        buckets.map((b) => b.itemCount), buckets.map((b) => b.flushAt), buckets.map((b) => b.createdAt)]);
    }
    if (items.length > 0) {
      await sqlRows(this.#em, 'insert into workflow_digest_items (bucket_id, run_id, variables, added_at) select * from unnest($1::text[], $2::text[], $3::jsonb[], $4::timestamptz[])',
        [items.map((i) => i.bucketId), items.map((i) => i.runId), items.map((i) => JSON.stringify(i.variables)), items.map((i) => i.at)]);
    }
  }

  async openBucket(b: DigestBucket): Promise<void> {
    await sqlRows(this.#em, `insert into workflow_digest_buckets (id, organization_id, bucket_key, owner_run_id, status, item_count, flush_at, created_at)
      values ($1, $2, $3, $4, $5, $6, $7, $8)`, [b.id, b.organizationId, b.bucketKey, b.ownerRunId, b.status, b.itemCount, b.flushAt, b.createdAt], { prepare: true });
  }

  async addDigestItem(organizationId: string, bucketId: string, runId: string, variables: Record<string, string>, at: Date): Promise<number> {
    const rows = await sqlRows<{ item_count: number }>(this.#em, `update workflow_digest_buckets set item_count = item_count + 1
      where organization_id = $1 and id = $2 and status = 'OPEN' returning item_count`, [organizationId, bucketId], { prepare: true });
    if (!rows[0]) throw new AppError('CONFLICT', 'The digest bucket is not open');
    await sqlRows(this.#em, 'insert into workflow_digest_items (bucket_id, run_id, variables, added_at) values ($1, $2, $3::jsonb, $4)',
      [bucketId, runId, JSON.stringify(variables), at], { prepare: true });
    return Number(rows[0].item_count);
  }

  async flushDigest(organizationId: string, bucketId: string, limit: number): Promise<{ flushed: boolean; items: Array<Record<string, string>> }> {
    const rows = await sqlRows(this.#em, `update workflow_digest_buckets set status = 'FLUSHED' where organization_id = $1 and id = $2 and status = 'OPEN' returning id`,
      [organizationId, bucketId], { prepare: true });
    if (!rows[0]) return { flushed: false, items: [] };
    const items = await sqlRows<{ variables: unknown }>(this.#em, 'select variables from workflow_digest_items where bucket_id = $1 order by added_at, run_id limit $2',
      [bucketId, limit], { prepare: true });
    return { flushed: true, items: items.map((i) => json<Record<string, string>>(i.variables)) };
  }

  async takeThrottle(organizationId: string, key: string, windowStart: Date, limit: number): Promise<boolean> {
    const rows = await sqlRows(this.#em, `insert into workflow_throttles (organization_id, throttle_key, window_start, taken) values ($1, $2, $3, 1)
      on conflict (organization_id, throttle_key, window_start) do update set taken = workflow_throttles.taken + 1
      where workflow_throttles.taken < $4 returning taken`, [organizationId, key, windowStart, limit], { prepare: true });
    return rows.length === 1;
  }

  async listFailedRuns(organizationId: string, since: Date, before: { at: Date; id: string } | null, limit: number): Promise<WorkflowRun[]> {
    const params: unknown[] = [organizationId, since, Math.min(limit, 100)];
    let keyset = '';
    if (before) { params.push(before.at, before.id); keyset = 'and (updated_at, id) < ($4, $5)'; }
    const rows = await sqlRows<Row>(this.#em, `select * from workflow_runs where organization_id = $1 and status = 'FAILED' and updated_at >= $2 ${keyset}
      order by updated_at desc, id desc limit $3`, params);
    return rows.map(toRun);
  }

  async countFailedRuns(organizationId: string, after: Date, cap: number): Promise<number> {
    const rows = await sqlRows<{ n: string }>(this.#em, `select count(*) as n from (select 1 from workflow_runs
      where organization_id = $1 and status = 'FAILED' and updated_at > $2 limit $3) failed`, [organizationId, after, cap]);
    return Number(rows[0]?.n ?? 0);
  }

  async findFailureAcknowledgement(organizationId: string): Promise<FailureAcknowledgement | null> {
    const rows = await sqlRows<Row>(this.#em, 'select * from workflow_failure_acknowledgements where organization_id = $1', [organizationId]);
    return rows[0] ? toAck(rows[0]) : null;
  }

  async acknowledgeFailures(ack: FailureAcknowledgement): Promise<FailureAcknowledgement> {
    const rows = await sqlRows<Row>(this.#em, `insert into workflow_failure_acknowledgements (organization_id, acknowledged_through, acknowledged_by, acknowledged_at)
      values ($1, $2, $3, $4) on conflict (organization_id) do update set acknowledged_through = greatest(workflow_failure_acknowledgements.acknowledged_through, excluded.acknowledged_through),
      acknowledged_by = excluded.acknowledged_by, acknowledged_at = excluded.acknowledged_at returning *`, [ack.organizationId, ack.through, ack.userId, ack.at]);
    return toAck(rows[0]!);
  }

  insertFanOut(fanOut: FanOut): Promise<void> { return sqlFanOuts.insert(this.#em, fanOut); }
  findFanOut(organizationId: string, id: string): Promise<FanOut | null> { return sqlFanOuts.find(this.#em, organizationId, id, false); }
  lockFanOut(organizationId: string, id: string): Promise<FanOut | null> { return sqlFanOuts.find(this.#em, organizationId, id, true); }
  updateFanOut(organizationId: string, id: string, patch: FanOutPatch): Promise<void> { return sqlFanOuts.update(this.#em, organizationId, id, patch); }
  claimFanOutRecipients(organizationId: string, fanOutId: string, recipients: readonly FanOutRecipient[]): Promise<string[]> {
    return sqlFanOuts.claim(this.#em, organizationId, fanOutId, recipients);
  }
  countFanOutRecipients(organizationId: string, fanOutId: string, afterContactId: string | null, upToContactId: string): Promise<{ started: number; skipped: number }> {
    return sqlFanOuts.count(this.#em, organizationId, fanOutId, afterContactId, upToContactId);
  }
}

function toAck(r: Row): FailureAcknowledgement {
  return { organizationId: r['organization_id'] as string, through: toDate(r['acknowledged_through'] as Date)!, userId: r['acknowledged_by'] as string | null, at: toDate(r['acknowledged_at'] as Date)! };
}
