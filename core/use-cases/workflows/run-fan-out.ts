import { isAppError } from '../../errors.ts';
import type { Contact } from '../../domain/contact.ts';
import { FAN_OUT_LIMITS, type FanOut } from '../../domain/fan-out.ts';
import type { WorkflowRun, WorkflowVersion } from '../../domain/workflow.ts';
import { QUEUES } from '../../ports/job-queue.ts';
import type { Repositories } from '../../ports/storage.ts';
import { RecipientAlreadyTriggered, TriggerEvent } from '../events/trigger-event.ts';
import type { TriggerDeps } from '../events/trigger-steps.ts';
import type { SendContext } from '../messaging/send-context.ts';
import { fanOutAudience, screenFanOutPage } from './fan-out-audience.ts';

/** Errors that stop a whole fan-out (every later recipient would fail the same way): it ends FAILED with the reason. */
const FATAL = new Set(['INSUFFICIENT_BALANCE', 'TEMPLATE_NOT_APPROVED', 'WHATSAPP_TEMPLATE_NOT_APPROVED', 'EVENT_INACTIVE', 'NOT_FOUND']);
/** Of those, the ones one recipient's trigger may throw for its own reasons (its contact deleted meanwhile): that recipient is skipped. */
const RECIPIENT_ONLY = new Set(['NOT_FOUND']);

export interface RunFanOutDeps extends TriggerDeps { batchSize?: number; maxBatchesPerRun?: number }
type Job = { fanOutId: string; organizationId: string };

/**
 * The worker's `workflow-fan-out` job (docs/workflows.md, "Fan-out"; docs/adr/0048-fan-out-exactly-once.md).
 * Pages through the audience after the fan-out's cursor (keyset by contact id, FAN_OUT_LIMITS.batch at a time,
 * never the whole audience). RUNS: one transaction per page under the fan-out's row lock records the page's
 * recipients (primary key (fan-out, contact)), inserts a run for each recipient it recorded, enqueues their first
 * steps and moves the cursor. TRIGGERS: each recipient's event trigger is its own transaction that records the
 * recipient first (TriggerEvent's claim), so a job killed mid-page and retried skips those already triggered;
 * the cursor then moves under the row lock. After `maxBatchesPerRun` pages the job re-enqueues itself.
 */
export class RunFanOut {
  readonly #deps: RunFanOutDeps;
  readonly #trigger: TriggerEvent;
  constructor(deps: RunFanOutDeps) {
    this.#deps = deps;
    const { deliverNow: _inline, ...queued } = deps;
    this.#trigger = new TriggerEvent(queued); // messages go to the delivery queue, not inline
  }

  async execute(job: Job): Promise<FanOut | null> {
    const { storage } = this.#deps;
    for (let pages = 0; ; pages += 1) {
      const fanOut = await storage.workflows.findFanOut(job.organizationId, job.fanOutId);
      if (!fanOut || fanOut.status !== 'RUNNING') return fanOut;
      if (pages >= (this.#deps.maxBatchesPerRun ?? FAN_OUT_LIMITS.batchesPerRun)) {
        await storage.jobs.enqueue(QUEUES.workflowFanOut, job);
        return fanOut;
      }
      try {
        if (fanOut.kind === 'RUNS') await storage.transaction((tx) => this.#runsPage(tx, job));
        else await this.#triggersPage(fanOut);
      } catch (error) {
        if (!isAppError(error) || !FATAL.has(error.code)) throw error;
        await this.#finish(job, { status: 'FAILED', failureReason: `${error.code}: ${error.message}; recipients not reached yet were not triggered` });
      }
    }
  }

  async #page(repos: Pick<Repositories, 'segments' | 'contacts'>, fanOut: FanOut): Promise<Contact[]> {
    const audience = await fanOutAudience(repos, fanOut.organizationId, fanOut);
    return repos.contacts.page(fanOut.organizationId, audience, fanOut.cursor, this.#deps.batchSize ?? FAN_OUT_LIMITS.batch);
  }

  async #runsPage(tx: Repositories, job: Job): Promise<void> {
    const fanOut = await tx.workflows.lockFanOut(job.organizationId, job.fanOutId);
    if (!fanOut || fanOut.status !== 'RUNNING') return;
    const contacts = await this.#page(tx, fanOut);
    if (contacts.length === 0) return this.#complete(tx, fanOut);
    const event = await tx.notificationEvents.findById(fanOut.organizationId, fanOut.eventId);
    if (!event?.isActive) return this.#complete(tx, fanOut, 'EVENT_INACTIVE: the event was deactivated; recipients not reached yet were not triggered');
    const version = await tx.workflows.latestVersion(fanOut.organizationId, fanOut.eventId);
    if (!version) return this.#complete(tx, fanOut, 'the event has no workflow any more');
    const { eligible, skipped } = await screenFanOutPage(tx, fanOut.organizationId, contacts);
    const runs = eligible.map((contact) => this.#run(fanOut, version, contact));
    const claimed = new Set(await tx.workflows.claimFanOutRecipients(fanOut.organizationId, fanOut.id, [
      ...runs.map((run) => ({ contactId: run.request.contactId!, runId: run.id, triggerId: null, skipReason: null })), ...skipped]));
    const fresh = runs.filter((run) => claimed.has(run.request.contactId!));
    for (const run of fresh) await tx.workflows.insertRun(run);
    if (fresh.length > 0) await tx.jobs.enqueueMany(QUEUES.workflowStep, fresh.map((run) => ({ data: { runId: run.id } })));
    await this.#advance(tx, fanOut, contacts);
  }

  async #triggersPage(fanOut: FanOut): Promise<void> {
    const { storage } = this.#deps;
    const contacts = await this.#page(storage, fanOut);
    if (contacts.length > 0) {
      const { eligible, skipped } = await screenFanOutPage(storage, fanOut.organizationId, contacts);
      await storage.workflows.claimFanOutRecipients(fanOut.organizationId, fanOut.id, skipped);
      for (const contact of eligible) await this.#triggerOne(fanOut, contact);
    }
    await storage.transaction(async (tx) => {
      const locked = await tx.workflows.lockFanOut(fanOut.organizationId, fanOut.id);
      if (!locked || locked.status !== 'RUNNING' || locked.cursor !== fanOut.cursor) return; // another attempt moved on meanwhile
      if (contacts.length === 0) await this.#complete(tx, locked);
      else await this.#advance(tx, locked, contacts);
    });
  }

  /** One recipient's plain event trigger, recorded with the recipient in its transaction; a recipient it cannot reach is recorded as skipped. */
  async #triggerOne(fanOut: FanOut, contact: Contact): Promise<void> {
    const { organizationId, id } = fanOut;
    const ctx: SendContext = { organizationId, userId: fanOut.userId, apiKeyId: fanOut.apiKeyId, isSandbox: fanOut.isSandbox };
    const body = { event: fanOut.eventSlug, contactId: contact.id, variables: fanOut.request.variables };
    try {
      await this.#trigger.execute(ctx, body, { claim: async (tx, triggerId) =>
        (await tx.workflows.claimFanOutRecipients(organizationId, id, [{ contactId: contact.id, runId: null, triggerId, skipReason: null }])).length === 1 });
    } catch (error) {
      if (error instanceof RecipientAlreadyTriggered) return;
      if (!isAppError(error) || (FATAL.has(error.code) && !RECIPIENT_ONLY.has(error.code))) throw error;
      await this.#deps.storage.workflows.claimFanOutRecipients(organizationId, id, [{ contactId: contact.id, runId: null, triggerId: null, skipReason: `${error.code}: ${error.message}`.slice(0, 500) }]);
    }
  }

  #run(fanOut: FanOut, version: WorkflowVersion, contact: Contact): WorkflowRun {
    const now = this.#deps.clock.now();
    return {
      id: this.#deps.ids.next(), organizationId: fanOut.organizationId, eventId: fanOut.eventId, eventSlug: fanOut.eventSlug, version: version.version,
      steps: version.steps, cancelOn: version.cancelOn, retry: version.retry, correlationKey: fanOut.request.correlationKey, status: 'RUNNING', cursor: 0, attempts: 0,
      request: { to: null, contactId: contact.id, subscriberId: null, countryCode: contact.countryCode, variables: fanOut.request.variables },
      waitingFor: null, signal: null, digest: null, error: null, apiKeyId: fanOut.apiKeyId, userId: fanOut.userId, isSandbox: fanOut.isSandbox, createdAt: now, updatedAt: now,
    };
  }

  /** Moves the cursor past the page; the counts are the page's recorded recipients (a retried page is counted once). */
  async #advance(tx: Repositories, fanOut: FanOut, contacts: readonly Contact[]): Promise<void> {
    const last = contacts[contacts.length - 1]!.id;
    const counts = await tx.workflows.countFanOutRecipients(fanOut.organizationId, fanOut.id, fanOut.cursor, last);
    await tx.workflows.updateFanOut(fanOut.organizationId, fanOut.id, { cursor: last, processed: fanOut.processed + contacts.length,
      started: fanOut.started + counts.started, skipped: fanOut.skipped + counts.skipped, updatedAt: this.#deps.clock.now() });
  }

  async #complete(tx: Repositories, fanOut: FanOut, failureReason?: string): Promise<void> {
    const now = this.#deps.clock.now();
    await tx.workflows.updateFanOut(fanOut.organizationId, fanOut.id, { status: failureReason ? 'FAILED' : 'COMPLETED', failureReason: failureReason ?? null, completedAt: now, updatedAt: now });
  }

  async #finish(job: Job, patch: { status: 'FAILED'; failureReason: string }): Promise<void> {
    await this.#deps.storage.transaction(async (tx) => {
      const fanOut = await tx.workflows.lockFanOut(job.organizationId, job.fanOutId);
      if (fanOut?.status === 'RUNNING') await this.#complete(tx, fanOut, patch.failureReason);
    });
  }
}
