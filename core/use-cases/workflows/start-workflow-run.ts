import { AppError } from '../../errors.ts';
import { canonicalJson } from '../../domain/canonical-json.ts';
import type { WorkflowRun } from '../../domain/workflow.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import { QUEUES } from '../../ports/job-queue.ts';
import type { Secrets } from '../../ports/secrets.ts';
import type { Storage } from '../../ports/storage.ts';
import { parseInput } from '../../validation.ts';
import { reachOfAddress } from '../events/trigger-plan.ts';
import { claimTriggerKey } from '../events/trigger-idempotency.ts';
import { TriggerEventInput } from '../events/trigger-event.ts';
import type { SendContext } from '../messaging/send-context.ts';
import { runView, type RunView } from './workflow-view.ts';

/** Runs one trigger may cancel or resume at most (a correlation key is one order, one invoice ...). */
const SIGNAL_LIMIT = 1_000;

export interface StartWorkflowRunDeps { storage: Storage; clock: Clock; ids: IdGenerator; secrets: Secrets }

export interface WorkflowTriggerResult {
  /** The run started, or null when the event has no workflow of its own (TriggerEvent sends it as before). */
  run: RunView | null;
  replayed: boolean;
  /** Active runs with the trigger's correlationKey that it cancelled (their cancelOn lists the event) or resumed (waiting for it). */
  cancelled: string[];
  resumed: string[];
}

/**
 * POST /events/trigger, first half. With a `correlationKey`, the trigger first cancels the organization's
 * active runs with that key whose workflow lists the event in `cancelOn`, and resumes those waiting for it
 * (a `wait` step for this event). Then, when the event has a workflow, a run of its latest version is
 * recorded (RUNNING, cursor 0) with its first `workflow-step` job in one transaction and answered at once;
 * every step runs in the worker. An event without a workflow answers `run: null`: the route then runs
 * TriggerEvent, unchanged (the implicit one-step workflow).
 */
export class StartWorkflowRun {
  readonly #deps: StartWorkflowRunDeps;
  constructor(deps: StartWorkflowRunDeps) { this.#deps = deps; }

  async execute(ctx: SendContext, raw: unknown): Promise<WorkflowTriggerResult> {
    const input = parseInput(TriggerEventInput, raw);
    const { storage, clock, ids, secrets } = this.#deps;
    const event = await storage.notificationEvents.findBySlug(ctx.organizationId, input.event);
    const signalled = input.correlationKey !== undefined ? await this.#signal(ctx.organizationId, input.event, input.correlationKey, input.variables ?? {}) : { cancelled: [], resumed: [] };
    const version = event ? await storage.workflows.latestVersion(ctx.organizationId, event.id) : null;
    if (!event || !version) return { run: null, replayed: false, ...signalled };
    if (!event.isActive) throw new AppError('EVENT_INACTIVE', `The notification event "${event.slug}" is deactivated`, { event: event.slug });
    if (input.contactId !== undefined && !await storage.contacts.findById(ctx.organizationId, input.contactId)) {
      throw new AppError('NOT_FOUND', 'Contact not found', { contactId: input.contactId });
    }
    if (input.to !== undefined) reachOfAddress(input.to, input.countryCode); // a malformed `to` is 400 now, not a failed run later

    const { idempotencyKey, ...request } = input;
    const now = clock.now();
    const run: WorkflowRun = {
      id: ids.next(), organizationId: ctx.organizationId, eventId: event.id, eventSlug: event.slug, version: version.version, steps: version.steps,
      cancelOn: version.cancelOn, retry: version.retry, correlationKey: input.correlationKey ?? null, status: 'RUNNING', cursor: 0, attempts: 0,
      request: { to: input.to ?? null, contactId: input.contactId ?? null, subscriberId: input.subscriberId ?? null, countryCode: input.countryCode, variables: input.variables ?? {} },
      waitingFor: null, signal: null, digest: null, error: null, apiKeyId: ctx.apiKeyId, userId: ctx.userId, isSandbox: ctx.isSandbox, createdAt: now, updatedAt: now,
    };
    const recorded = await storage.transaction(async (tx) => {
      if (idempotencyKey) {
        const earlierId = await claimTriggerKey(tx, ctx.organizationId, { idempotencyKey, requestHash: secrets.sha256(canonicalJson(request)), kind: 'run', answerId: run.id, now });
        const earlier = earlierId ? await tx.workflows.findRun(ctx.organizationId, earlierId) : null;
        if (earlier) return { run: earlier, replayed: true };
      }
      await tx.workflows.insertRun(run);
      await tx.jobs.enqueue(QUEUES.workflowStep, { runId: run.id });
      return { run, replayed: false };
    });
    return { run: runView(recorded.run, [], new Map()), replayed: recorded.replayed, ...signalled };
  }

  async #signal(organizationId: string, slug: string, correlationKey: string, variables: Record<string, string>): Promise<{ cancelled: string[]; resumed: string[] }> {
    const { storage, clock } = this.#deps;
    const cancelled: string[] = [];
    const resumed: string[] = [];
    for (const candidate of await storage.workflows.findActiveByKey(organizationId, correlationKey, SIGNAL_LIMIT)) {
      if (!candidate.cancelOn.includes(slug) && candidate.waitingFor !== slug) continue;
      await storage.transaction(async (tx) => {
        const run = await tx.workflows.lockRun(candidate.id);
        if (!run || (run.status !== 'RUNNING' && run.status !== 'WAITING')) return;
        const now = clock.now();
        if (run.cancelOn.includes(slug)) {
          await tx.workflows.updateRun(organizationId, run.id, { status: 'CANCELLED', waitingFor: null, error: { code: 'CANCELLED', message: `cancelled by ${slug}` }, updatedAt: now });
          cancelled.push(run.id);
        } else if (run.waitingFor === slug) {
          await tx.workflows.updateRun(organizationId, run.id, { signal: { event: slug, at: now.toISOString(), variables }, waitingFor: null, updatedAt: now });
          await tx.jobs.enqueue(QUEUES.workflowStep, { runId: run.id });
          resumed.push(run.id);
        }
      });
    }
    return { cancelled, resumed };
  }
}
