import { AppError } from '../../core/errors.ts';
import { ACTIVE_RUN_STATUSES, type RunStatus, type WorkflowRun, type WorkflowStepRun, type WorkflowVersion } from '../../core/domain/workflow.ts';
import type { DigestBucket, DigestItem, FailureAcknowledgement, RunPatch, WorkflowRepository } from '../../core/ports/workflow-repository.ts';
import type { FanOut, FanOutPatch, FanOutRecipient } from '../../core/domain/fan-out.ts';
import { copy, type MemoryState } from './memory-state.ts';

const newestFirst = (a: { createdAt: Date; id: string }, b: { createdAt: Date; id: string }) =>
  b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** Transactions of InMemoryStorage run one at a time, so a "lock" is a plain read here. */
export class InMemoryWorkflowRepository implements WorkflowRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async insertVersion(version: WorkflowVersion): Promise<void> {
    if (this.#state.workflowVersions.some((v) => v.eventId === version.eventId && v.version === version.version)) {
      throw new AppError('CONFLICT', 'This workflow version already exists');
    }
    this.#state.workflowVersions.push(copy(version));
  }

  async latestVersion(organizationId: string, eventId: string): Promise<WorkflowVersion | null> {
    return (await this.listVersions(organizationId, eventId, 1))[0] ?? null;
  }

  async listVersions(organizationId: string, eventId: string, limit: number): Promise<WorkflowVersion[]> {
    return this.#state.workflowVersions.filter((v) => v.organizationId === organizationId && v.eventId === eventId)
      .sort((a, b) => b.version - a.version).slice(0, Math.min(limit, 100)).map(copy);
  }

  async insertRun(run: WorkflowRun): Promise<void> {
    this.#state.workflowRuns.set(run.id, copy(run));
  }

  async findRun(organizationId: string, id: string): Promise<WorkflowRun | null> {
    const run = this.#state.workflowRuns.get(id);
    return run && run.organizationId === organizationId ? copy(run) : null;
  }

  async lockRun(id: string): Promise<WorkflowRun | null> {
    const run = this.#state.workflowRuns.get(id);
    return run ? copy(run) : null;
  }

  async updateRun(organizationId: string, id: string, patch: RunPatch): Promise<void> {
    const run = this.#state.workflowRuns.get(id);
    if (run && run.organizationId === organizationId) this.#state.workflowRuns.set(id, { ...run, ...copy(patch) });
  }

  async listRuns(organizationId: string, eventId: string, limit: number): Promise<WorkflowRun[]> {
    return [...this.#state.workflowRuns.values()].filter((r) => r.organizationId === organizationId && r.eventId === eventId)
      .sort(newestFirst).slice(0, Math.min(limit, 100)).map(copy);
  }

  async findActiveByKey(organizationId: string, correlationKey: string, limit: number): Promise<WorkflowRun[]> {
    return [...this.#state.workflowRuns.values()]
      .filter((r) => r.organizationId === organizationId && r.correlationKey === correlationKey && ACTIVE_RUN_STATUSES.includes(r.status))
      .slice(0, Math.min(limit, 1000)).map(copy);
  }

  async lockWaitKeys(_organizationId: string, _keys: readonly string[]): Promise<void> {
    // The memory storage runs one transaction at a time: nothing to serialize.
  }

  async findWaiting(organizationId: string, keys: readonly string[], limit: number): Promise<string[]> {
    return [...this.#state.workflowRuns.values()]
      .filter((r) => r.organizationId === organizationId && r.status === 'WAITING' && r.waitingFor !== null && keys.includes(r.waitingFor))
      .map((r) => r.id).sort().slice(0, Math.max(0, Math.min(limit, 1000)));
  }

  async resumeDueDelays(runIds: readonly string[], dueBy: Date, now: Date): Promise<Array<{ id: string; status: RunStatus }>> {
    const moved: Array<{ id: string; status: RunStatus }> = [];
    for (const id of new Set(runIds)) {
      const run = this.#state.workflowRuns.get(id);
      const key = `${id}/${run?.cursor ?? -1}`;
      const step = this.#state.workflowSteps.get(key);
      if (!run || run.status !== 'WAITING' || !step || step.type !== 'delay' || step.status !== 'WAITING' || !step.resumeAt || step.resumeAt > dueBy) continue;
      this.#state.workflowSteps.set(key, { ...step, status: 'DONE', outcome: 'RESUMED', finishedAt: now });
      const status: RunStatus = run.cursor + 1 >= run.steps.length ? 'COMPLETED' : 'RUNNING';
      this.#state.workflowRuns.set(id, { ...run, cursor: run.cursor + 1, status, attempts: 0, error: null, updatedAt: now });
      moved.push({ id, status });
    }
    return moved;
  }

  async resumeDueDelaySteps(dueBy: Date, now: Date, limit: number): Promise<Array<{ id: string; organizationId: string; status: RunStatus }>> {
    const due = [...this.#state.workflowSteps.values()]
      .filter((s) => s.type === 'delay' && s.status === 'WAITING' && s.resumeAt && s.resumeAt <= dueBy)
      .sort((a, b) => a.resumeAt!.getTime() - b.resumeAt!.getTime());
    const moved: Array<{ id: string; organizationId: string; status: RunStatus }> = [];
    let claimed = 0;
    for (const step of due) {
      if (claimed >= Math.max(1, limit)) break;
      const run = this.#state.workflowRuns.get(step.runId);
      if (!run) continue;
      const waitingHere = run.status === 'WAITING' && run.cursor === step.index;
      if (!waitingHere && ACTIVE_RUN_STATUSES.includes(run.status)) continue;
      claimed += 1;
      const outcome = waitingHere ? 'RESUMED' : run.status === 'CANCELLED' ? 'CANCELLED' : 'ENDED';
      this.#state.workflowSteps.set(`${step.runId}/${step.index}`, { ...step, status: 'DONE', outcome, finishedAt: now });
      if (!waitingHere) continue;
      const status: RunStatus = run.cursor + 1 >= run.steps.length ? 'COMPLETED' : 'RUNNING';
      this.#state.workflowRuns.set(run.id, { ...run, cursor: run.cursor + 1, status, attempts: 0, error: null, updatedAt: now });
      moved.push({ id: run.id, organizationId: run.organizationId, status });
    }
    return moved;
  }

  async lockRunningRuns(runIds: readonly string[]): Promise<WorkflowRun[]> {
    return [...new Set(runIds)].map((id) => this.#state.workflowRuns.get(id)).filter((r): r is WorkflowRun => r?.status === 'RUNNING').map(copy);
  }

  async claimSteps(steps: readonly WorkflowStepRun[]): Promise<void> {
    const keys = steps.map((s) => `${s.runId}/${s.index}`);
    if (new Set(keys).size !== keys.length || keys.some((k) => this.#state.workflowSteps.has(k))) throw new AppError('CONFLICT', 'A step run already exists');
    steps.forEach((step, i) => this.#state.workflowSteps.set(keys[i]!, copy(step)));
  }

  async moveRuns(organizationId: string, moves: ReadonlyArray<{ id: string; status: RunStatus; cursor: number }>, now: Date): Promise<void> {
    for (const move of moves) {
      const run = this.#state.workflowRuns.get(move.id);
      if (run && run.organizationId === organizationId) {
        this.#state.workflowRuns.set(move.id, { ...run, status: move.status, cursor: move.cursor, attempts: 0, error: null, waitingFor: null, updatedAt: now });
      }
    }
  }

  async claimStep(step: WorkflowStepRun): Promise<boolean> {
    const key = `${step.runId}/${step.index}`;
    if (this.#state.workflowSteps.has(key)) return false;
    this.#state.workflowSteps.set(key, copy(step));
    return true;
  }

  async findStep(organizationId: string, runId: string, index: number): Promise<WorkflowStepRun | null> {
    const step = this.#state.workflowSteps.get(`${runId}/${index}`);
    return step && step.organizationId === organizationId ? copy(step) : null;
  }

  async updateStep(organizationId: string, runId: string, index: number, patch: Partial<WorkflowStepRun>): Promise<void> {
    const key = `${runId}/${index}`;
    const step = this.#state.workflowSteps.get(key);
    if (step && step.organizationId === organizationId) this.#state.workflowSteps.set(key, { ...step, ...copy(patch) });
  }

  async listSteps(organizationId: string, runId: string): Promise<WorkflowStepRun[]> {
    return [...this.#state.workflowSteps.values()].filter((s) => s.organizationId === organizationId && s.runId === runId)
      .sort((a, b) => a.index - b.index).map(copy);
  }

  async lockLatestBucket(organizationId: string, bucketKey: string): Promise<DigestBucket | null> {
    const hits = this.#state.digestBuckets.filter((b) => b.organizationId === organizationId && b.bucketKey === bucketKey);
    return hits.length ? copy(hits.sort(newestFirst)[0]!) : null;
  }

  async lockLatestBuckets(organizationId: string, bucketKeys: readonly string[]): Promise<Map<string, DigestBucket>> {
    const latest = new Map<string, DigestBucket>();
    for (const key of new Set(bucketKeys)) {
      const bucket = await this.lockLatestBucket(organizationId, key);
      if (bucket) latest.set(key, bucket);
    }
    return latest;
  }

  async writeDigestJoins(organizationId: string, joins: { buckets: readonly DigestBucket[]; items: readonly DigestItem[]; grown: ReadonlyArray<{ bucketId: string; added: number }> }): Promise<void> {
    const grown = joins.grown.map((g) => ({ bucket: this.#state.digestBuckets.find((b) => b.id === g.bucketId && b.organizationId === organizationId), added: g.added }));
    if (grown.some((g) => g.bucket?.status !== 'OPEN')) throw new AppError('CONFLICT', 'The digest bucket is not open');
    for (const g of grown) g.bucket!.itemCount += g.added;
    for (const bucket of joins.buckets) this.#state.digestBuckets.push(copy(bucket));
    for (const item of joins.items) this.#state.digestItems.push({ ...item, variables: copy(item.variables) });
  }

  async openBucket(bucket: DigestBucket): Promise<void> {
    this.#state.digestBuckets.push(copy(bucket));
  }

  async addDigestItem(organizationId: string, bucketId: string, runId: string, variables: Record<string, string>, at: Date): Promise<number> {
    const bucket = this.#state.digestBuckets.find((b) => b.id === bucketId && b.organizationId === organizationId);
    if (!bucket || bucket.status !== 'OPEN') throw new AppError('CONFLICT', 'The digest bucket is not open');
    this.#state.digestItems.push({ bucketId, runId, variables: copy(variables), at });
    bucket.itemCount += 1;
    return bucket.itemCount;
  }

  async flushDigest(organizationId: string, bucketId: string, limit: number): Promise<{ flushed: boolean; items: Array<Record<string, string>> }> {
    const bucket = this.#state.digestBuckets.find((b) => b.id === bucketId && b.organizationId === organizationId);
    if (!bucket || bucket.status !== 'OPEN') return { flushed: false, items: [] };
    bucket.status = 'FLUSHED';
    return { flushed: true, items: this.#state.digestItems.filter((i) => i.bucketId === bucketId).slice(0, limit).map((i) => copy(i.variables)) };
  }

  async takeThrottle(organizationId: string, key: string, windowStart: Date, limit: number): Promise<boolean> {
    const k = `${organizationId} ${key} ${windowStart.toISOString()}`;
    const count = this.#state.throttles.get(k) ?? 0;
    if (count >= limit) return false;
    this.#state.throttles.set(k, count + 1);
    return true;
  }

  async listFailedRuns(organizationId: string, since: Date, before: { at: Date; id: string } | null, limit: number): Promise<WorkflowRun[]> {
    const latestFirst = (a: WorkflowRun, b: WorkflowRun) => b.updatedAt.getTime() - a.updatedAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
    const isBefore = (r: WorkflowRun) => !before || r.updatedAt < before.at || (r.updatedAt.getTime() === before.at.getTime() && r.id < before.id);
    return [...this.#state.workflowRuns.values()]
      .filter((r) => r.organizationId === organizationId && r.status === 'FAILED' && r.updatedAt >= since && isBefore(r))
      .sort(latestFirst).slice(0, Math.min(limit, 100)).map(copy);
  }

  async countFailedRuns(organizationId: string, after: Date, cap: number): Promise<number> {
    let n = 0;
    for (const r of this.#state.workflowRuns.values()) if (r.organizationId === organizationId && r.status === 'FAILED' && r.updatedAt > after && n < cap) n++;
    return n;
  }

  async findFailureAcknowledgement(organizationId: string): Promise<FailureAcknowledgement | null> {
    const ack = this.#state.workflowFailureAcks.get(organizationId);
    return ack ? copy(ack) : null;
  }

  async acknowledgeFailures(ack: FailureAcknowledgement): Promise<FailureAcknowledgement> {
    const stored = this.#state.workflowFailureAcks.get(ack.organizationId);
    const next = stored && stored.through > ack.through ? { ...ack, through: stored.through } : ack;
    this.#state.workflowFailureAcks.set(ack.organizationId, copy(next));
    return copy(next);
  }

  async insertFanOut(fanOut: FanOut): Promise<void> { this.#state.fanOuts.set(fanOut.id, copy(fanOut)); }

  async findFanOut(organizationId: string, id: string): Promise<FanOut | null> {
    const fanOut = this.#state.fanOuts.get(id);
    return fanOut && fanOut.organizationId === organizationId ? copy(fanOut) : null;
  }

  lockFanOut(organizationId: string, id: string): Promise<FanOut | null> { return this.findFanOut(organizationId, id); }

  async updateFanOut(organizationId: string, id: string, patch: FanOutPatch): Promise<void> {
    const fanOut = this.#state.fanOuts.get(id);
    if (fanOut && fanOut.organizationId === organizationId) this.#state.fanOuts.set(id, { ...fanOut, ...copy(patch) });
  }

  async claimFanOutRecipients(organizationId: string, fanOutId: string, recipients: readonly FanOutRecipient[]): Promise<string[]> {
    const claimed: string[] = [];
    for (const recipient of recipients) {
      const key = `${fanOutId}/${recipient.contactId}`;
      if (this.#state.fanOutRecipients.has(key)) continue;
      this.#state.fanOutRecipients.set(key, { ...copy(recipient), organizationId, fanOutId });
      claimed.push(recipient.contactId);
    }
    return claimed;
  }

  async countFanOutRecipients(organizationId: string, fanOutId: string, afterContactId: string | null, upToContactId: string): Promise<{ started: number; skipped: number }> {
    let started = 0; let skipped = 0;
    for (const r of this.#state.fanOutRecipients.values()) {
      if (r.fanOutId !== fanOutId || r.organizationId !== organizationId || r.contactId <= (afterContactId ?? '') || r.contactId > upToContactId) continue;
      if (r.skipReason === null) started += 1; else skipped += 1;
    }
    return { started, skipped };
  }
}
