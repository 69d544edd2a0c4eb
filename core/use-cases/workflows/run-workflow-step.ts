import { isAppError } from '../../errors.ts';
import { ACTIVE_RUN_STATUSES, type WorkflowRun, type WorkflowStep } from '../../domain/workflow.ts';
import { QUEUES } from '../../ports/job-queue.ts';
import type { RunPatch } from '../../ports/workflow-repository.ts';
import { isFinalFailure, takeNextStep, type TriggerDeps } from '../events/trigger-steps.ts';
import { publishOutboundEvent } from '../webhooks/publish-outbound-event.ts';
import { digestStep } from './workflow-digest.ts';
import { eventWaitStep } from './workflow-event-wait.ts';
import { acceptSendStep } from './workflow-send.ts';
import { branchStep, delayStep, finishStep, throttleStep, waitStep, type StepDecision, type StepEnv } from './workflow-step-kinds.ts';

/** Steps taken in one job at most (a run has at most 20; waits end the job earlier). */
const MAX_STEPS_PER_JOB = 25;
/** Attempts a step gets, whatever its workflow's rule says, when it fails for a reason that is no AppError. */
const INFRASTRUCTURE_ATTEMPTS = 10;

/**
 * The `workflow-step` job `{ runId }`: runs a workflow run's steps from its cursor until it waits, ends or
 * fails. Each step runs in one transaction with the run's row locked: the step's row (unique per run and
 * index), its side effect (a message accepted through the send pipeline, a digest item, a throttle count)
 * and the run's new cursor commit together, so a crash before the commit leaves nothing and the retried job
 * does the step again, and a crash after it leaves the step done and the job skips it
 * (docs/adr/0044-workflow-exactly-once.md). Stale, early and repeated jobs do nothing or wait again.
 *
 * A step that throws is retried by the workflow's rule (`retry.attempts` in all, backoff doubling from
 * `retry.backoffSeconds`); the last failure fails the run and publishes `workflow.run_failed`.
 */
export class RunWorkflowStep {
  readonly #deps: TriggerDeps;
  constructor(deps: TriggerDeps) { this.#deps = deps; }

  /** `stopAtSend`: returns true, having done nothing more, when the run stands at a send step (the batch path sends those together). */
  async execute(runId: string, options: { stopAtSend?: boolean } = {}): Promise<boolean> {
    let stepCount = Number.POSITIVE_INFINITY; // known after the first step: no further transaction once the run is done
    for (let i = 0; i < MAX_STEPS_PER_JOB; i++) {
      let sent: { triggerId: string; messageId: string } | null = null;
      let decision: StepDecision | 'stop' | 'send';
      try {
        decision = await this.#deps.storage.transaction(async (tx) => {
          const run = await tx.workflows.lockRun(runId);
          if (!run || !ACTIVE_RUN_STATUSES.includes(run.status)) return 'stop';
          stepCount = run.steps.length;
          const now = this.#deps.clock.now();
          if (run.cursor >= run.steps.length) {
            await tx.workflows.updateRun(run.organizationId, run.id, { status: 'COMPLETED', waitingFor: null, updatedAt: now });
            return 'stop';
          }
          const step = run.steps[run.cursor]!;
          if (options.stopAtSend && step.type === 'send') return 'send';
          const existing = await tx.workflows.findStep(run.organizationId, run.id, run.cursor);
          if (existing?.status === 'DONE') return 'stop'; // cannot happen: the cursor moves with the step's row
          const env: StepEnv = { tx, ids: this.#deps.ids, run, index: run.cursor, existing, now };
          const result = await this.#step(env, step, (s) => { sent = s; });
          await applyDecision(env, result);
          return result;
        });
      } catch (error) {
        await this.#failed(runId, error);
        return false;
      }
      if (decision === 'send') return true;
      if (sent) await this.#fallbackAtOnce(sent);
      if (decision === 'stop' || !('next' in decision) || decision.next >= stepCount) break;
    }
    return false;
  }

  /**
   * The batch path of a `workflow-step` job batch: the runs whose current step is a due delay move past it in
   * one statement (many runs delayed to the same instant resume together); the others, and those with steps
   * left after their delay, go through `execute` one by one. Answers the runs that are done.
   */
  async resumeDueDelays(runIds: readonly string[]): Promise<Set<string>> {
    const now = this.#deps.clock.now();
    const moved = await this.#deps.storage.transaction((tx) => tx.workflows.resumeDueDelays(runIds, new Date(now.getTime() + 500), now));
    return new Set(moved.filter((m) => m.status === 'COMPLETED').map((m) => m.id));
  }

  async #step(env: StepEnv, step: WorkflowStep, onSent: (s: { triggerId: string; messageId: string }) => void): Promise<StepDecision> {
    switch (step.type) {
      case 'send': {
        const digest = env.run.steps.slice(0, env.index).reverse().find((s) => s.type === 'digest');
        const { message, trigger } = await acceptSendStep(env.tx, this.#deps, env.run, env.index, step, digest?.type === 'digest' ? digest.itemVariable : undefined);
        await finishStep(env, 'send', 'SENT', { channel: message.channel, recipient: message.recipient });
        await env.tx.workflows.updateStep(env.run.organizationId, env.run.id, env.index, { messageId: message.id, triggerId: trigger.id });
        onSent({ triggerId: trigger.id, messageId: message.id });
        return { next: env.index + 1 };
      }
      case 'delay': {
        const send = env.run.steps.slice(env.index + 1).find((s) => s.type === 'send');
        const template = send?.type === 'send' && send.templateId ? await env.tx.templates.findById(env.run.organizationId, send.templateId) : null;
        return delayStep(env, step, template?.category ?? 'MARKETING');
      }
      case 'digest': return digestStep(env, step);
      case 'throttle': return throttleStep(env, step);
      case 'branch': return branchStep(env, step);
      case 'wait': return step.for === 'read' || step.for === 'reply' || step.for === 'click' ? eventWaitStep(env, { ...step, for: step.for }) : waitStep(env, step);
    }
  }

  /** A message refused at acceptance (fraud, suppression) falls back at once, as an event trigger's does. */
  async #fallbackAtOnce(sent: { triggerId: string; messageId: string }): Promise<void> {
    const message = await this.#deps.storage.messages.findById((await this.#deps.storage.eventTriggers.findForAdvance(sent.triggerId))?.organizationId ?? '', sent.messageId);
    if (message && isFinalFailure(message)) await takeNextStep(this.#deps, sent.triggerId, sent.messageId);
  }

  async #failed(runId: string, error: unknown): Promise<WorkflowRun | null> {
    const code = isAppError(error) ? error.code : 'INTERNAL_ERROR';
    const messageText = error instanceof Error ? error.message : String(error);
    const { storage, clock, ids } = this.#deps;
    return storage.transaction(async (tx) => {
      const run = await tx.workflows.lockRun(runId);
      if (!run || !ACTIVE_RUN_STATUSES.includes(run.status)) return run;
      const now = clock.now();
      const attempts = run.attempts + 1;
      // An infrastructure failure (the database or a connection timing out) is not the step's fault: it gets at least 10 attempts.
      const allowed = isAppError(error) ? run.retry.attempts : Math.max(run.retry.attempts, INFRASTRUCTURE_ATTEMPTS);
      if (attempts < allowed) {
        const delay = Math.min(3_600, run.retry.backoffSeconds * 2 ** (attempts - 1));
        await tx.workflows.updateRun(run.organizationId, run.id, { attempts, error: { code, message: messageText }, updatedAt: now });
        await tx.jobs.enqueue(QUEUES.workflowStep, { runId }, { startAfterSeconds: delay });
        return { ...run, attempts };
      }
      const failed = { ...run, status: 'FAILED' as const, attempts, error: { code, message: messageText }, waitingFor: null, updatedAt: now };
      await tx.workflows.updateRun(run.organizationId, run.id, { status: 'FAILED', attempts, error: failed.error, waitingFor: null, updatedAt: now });
      const existing = await tx.workflows.findStep(run.organizationId, run.id, run.cursor);
      if (existing) await tx.workflows.updateStep(run.organizationId, run.id, run.cursor, { status: 'FAILED', outcome: 'FAILED', detail: { ...existing.detail, errorCode: code }, finishedAt: now });
      else if (run.cursor < run.steps.length) {
        await tx.workflows.claimStep({
          runId, organizationId: run.organizationId, index: run.cursor, type: run.steps[run.cursor]!.type, status: 'FAILED', outcome: 'FAILED', messageId: null,
          triggerId: null, resumeAt: null, detail: { errorCode: code, errorMessage: messageText }, startedAt: now, finishedAt: now,
        });
      }
      await publishOutboundEvent(tx, {
        id: ids.next(), organizationId: run.organizationId, kind: 'workflow.run_failed', occurredAt: now,
        data: { runId, eventId: run.eventId, event: run.eventSlug, version: run.version, failedStep: run.cursor, errorCode: code, errorMessage: messageText, attempts, failedAt: now.toISOString() },
      });
      return failed;
    });
  }
}

async function applyDecision(env: StepEnv, decision: StepDecision): Promise<void> {
  const { run, now, tx } = env;
  const patch: RunPatch = { ...decision.patch, attempts: 0, error: null, updatedAt: now };
  if ('next' in decision) Object.assign(patch, { cursor: decision.next, status: decision.next >= run.steps.length ? 'COMPLETED' : 'RUNNING' });
  else if ('wait' in decision) patch.status = 'WAITING';
  else Object.assign(patch, { status: decision.end, cursor: run.steps.length, waitingFor: null });
  await tx.workflows.updateRun(run.organizationId, run.id, patch);
}
