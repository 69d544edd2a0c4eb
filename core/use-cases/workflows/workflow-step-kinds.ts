import { COUNTRY_TIME_ZONES, nextAllowedTime } from '../../domain/send-window.ts';
import {
  evaluateCondition, recipientKey, targetIndex, type WorkflowRun, type WorkflowStep, type WorkflowStepRun,
} from '../../domain/workflow.ts';
import { QUEUES } from '../../ports/job-queue.ts';
import type { Repositories } from '../../ports/storage.ts';
import type { RunPatch } from '../../ports/workflow-repository.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import { contactPreferences } from '../consent/get-contact-preferences.ts';

/** What a step decided: go to a step index (steps.length = done), wait for its job, or end the run now. */
export type StepDecision =
  | { next: number; patch?: Partial<RunPatch> }
  | { wait: Date; patch?: Partial<RunPatch> }
  | { end: 'COMPLETED'; patch?: Partial<RunPatch> };

export interface StepEnv {
  tx: Repositories;
  ids: IdGenerator;
  run: WorkflowRun;
  index: number;
  /** The step's row when an earlier job of this run claimed it (a waiting step), else null. */
  existing: WorkflowStepRun | null;
  now: Date;
}

/** Polling interval of a wait for a delivery report (the status is read from the message itself). */
export const DELIVERY_POLL_SECONDS = 10;

function stepRow(env: StepEnv, type: WorkflowStep['type'], fields: Partial<WorkflowStepRun>): WorkflowStepRun {
  return {
    runId: env.run.id, organizationId: env.run.organizationId, index: env.index, type, status: 'DONE', outcome: null, messageId: null, triggerId: null,
    resumeAt: null, detail: {}, startedAt: env.now, finishedAt: env.now, ...fields,
  };
}

/** Records the step as DONE (claiming it, or finishing the waiting row). */
export async function finishStep(env: StepEnv, type: WorkflowStep['type'], outcome: string, detail: Record<string, unknown> = {}): Promise<void> {
  if (env.existing) {
    await env.tx.workflows.updateStep(env.run.organizationId, env.run.id, env.index, { status: 'DONE', outcome, detail: { ...env.existing.detail, ...detail }, finishedAt: env.now });
  } else {
    await env.tx.workflows.claimStep(stepRow(env, type, { outcome, detail }));
  }
}

/**
 * The step waits until `resumeAt` (its WAITING row holds the time). A delay has no job of its own: the delay
 * resumer (resume-due-delays.ts) of every worker claims due delay rows set-wise; other waits enqueue their job.
 */
async function waitUntil(env: StepEnv, type: WorkflowStep['type'], resumeAt: Date, detail: Record<string, unknown>, outcome: string): Promise<StepDecision> {
  if (!env.existing) await env.tx.workflows.claimStep(stepRow(env, type, { status: 'WAITING', outcome, resumeAt, detail, finishedAt: null }));
  if (type === 'delay') return { wait: resumeAt };
  const seconds = Math.max(0, Math.ceil((resumeAt.getTime() - env.now.getTime()) / 1000));
  await env.tx.jobs.enqueue(QUEUES.workflowStep, { runId: env.run.id }, { startAfterSeconds: seconds });
  return { wait: resumeAt };
}

const due = (env: StepEnv) => env.existing?.resumeAt && env.existing.resumeAt.getTime() <= env.now.getTime() + 500;

export async function delayStep(env: StepEnv, step: Extract<WorkflowStep, { type: 'delay' }>, category: string): Promise<StepDecision> {
  if (env.existing) {
    if (due(env)) { await finishStep(env, 'delay', 'RESUMED'); return { next: env.index + 1 }; }
    return waitUntil(env, 'delay', env.existing.resumeAt ?? env.now, {}, 'DELAYED');
  }
  let resumeAt: Date | null = null;
  if (step.seconds !== undefined) resumeAt = new Date(env.now.getTime() + step.seconds * 1000);
  else if (step.untilVariable !== undefined) {
    const at = Date.parse(env.run.request.variables[step.untilVariable] ?? '');
    if (Number.isNaN(at)) { await finishStep(env, 'delay', 'NO_TIME', { reason: `variable ${step.untilVariable} is not a time` }); return { next: env.index + 1 }; }
    resumeAt = new Date(Math.min(at, env.now.getTime() + 35 * 86_400_000));
  } else {
    const contact = env.run.request.contactId ? await env.tx.contacts.findById(env.run.organizationId, env.run.request.contactId) : null;
    const country = contact?.countryCode ?? env.run.request.countryCode;
    const window = (await env.tx.sendWindows.list()).find((w) => w.country === country && w.category === category) ?? null;
    resumeAt = nextAllowedTime(env.now, contact?.timeZone ?? COUNTRY_TIME_ZONES[country] ?? 'UTC', window, null);
  }
  if (!resumeAt || resumeAt.getTime() <= env.now.getTime()) { await finishStep(env, 'delay', 'NO_WAIT'); return { next: env.index + 1 }; }
  return waitUntil(env, 'delay', resumeAt, {}, 'DELAYED');
}

export async function throttleStep(env: StepEnv, step: Extract<WorkflowStep, { type: 'throttle' }>): Promise<StepDecision> {
  const windowMs = step.windowSeconds * 1000;
  const windowStart = new Date(Math.floor(env.now.getTime() / windowMs) * windowMs);
  const key = `${env.run.eventId}:${env.index}:${recipientKey(env.run.request)}:${step.keyVariable ? env.run.request.variables[step.keyVariable] ?? '' : ''}`;
  const taken = await env.tx.workflows.takeThrottle(env.run.organizationId, key, windowStart, step.limit);
  await finishStep(env, 'throttle', taken ? 'PASSED' : 'THROTTLED', { windowStart: windowStart.toISOString() });
  return taken ? { next: env.index + 1 } : { end: 'COMPLETED' };
}

/** What a branch may look at: the payload (trigger variables), the contact, earlier steps' outcomes. */
export async function branchStep(env: StepEnv, step: Extract<WorkflowStep, { type: 'branch' }>): Promise<StepDecision> {
  const { run, tx } = env;
  const contact = run.request.contactId ? await tx.contacts.findById(run.organizationId, run.request.contactId) : null;
  const steps: Record<string, { outcome: string | null; status: string }> = {};
  for (const s of await tx.workflows.listSteps(run.organizationId, run.id)) steps[String(s.index)] = { outcome: s.outcome, status: s.status };
  const preferences: Record<string, Record<string, boolean>> = {};
  if (contact && JSON.stringify(step.if).includes('"contact.preferences.')) {
    for (const p of (await contactPreferences(tx, contact)).preferences) (preferences[p.channel] ??= {})[p.category] = p.optedIn;
  }
  const context = {
    payload: { ...run.request.variables, ...(run.signal?.variables ?? {}) },
    contact: contact ? {
      firstName: contact.firstName, lastName: contact.lastName, phone: contact.phone, email: contact.email, countryCode: contact.countryCode,
      tags: contact.tags, optedOut: contact.optedOutAt !== null, attributes: contact.attributes, preferences,
    } : {},
    steps,
  };
  const result = evaluateCondition(step.if, context);
  await finishStep(env, 'branch', result ? 'TRUE' : 'FALSE');
  return { next: targetIndex(result ? step.then : step.else, env.index, run.steps.length) };
}

export async function waitStep(env: StepEnv, step: Extract<WorkflowStep, { type: 'wait' }>): Promise<StepDecision> {
  const { run, tx } = env;
  const go = async (outcome: string, target: typeof step.onEvent): Promise<StepDecision> => {
    await finishStep(env, 'wait', outcome);
    return { next: targetIndex(target, env.index, run.steps.length), patch: { waitingFor: null } };
  };
  if (!env.existing) {
    const resumeAt = new Date(env.now.getTime() + step.timeoutSeconds * 1000);
    await tx.workflows.claimStep(stepRow(env, 'wait', { status: 'WAITING', outcome: 'WAITING', resumeAt, detail: { for: step.for, event: step.event ?? null }, finishedAt: null }));
    if (step.for === 'trigger') {
      await tx.jobs.enqueue(QUEUES.workflowStep, { runId: run.id }, { startAfterSeconds: step.timeoutSeconds });
      return { wait: resumeAt, patch: { waitingFor: step.event ?? null, signal: null } };
    }
    await tx.jobs.enqueue(QUEUES.workflowStep, { runId: run.id }, { startAfterSeconds: Math.min(DELIVERY_POLL_SECONDS, step.timeoutSeconds) });
    return { wait: resumeAt };
  }
  if (step.for === 'trigger') {
    if (run.signal && run.signal.event === step.event) return go('EVENT', step.onEvent);
    if (due(env)) return go('TIMEOUT', step.onTimeout);
    return waitUntil(env, 'wait', env.existing.resumeAt ?? env.now, {}, 'WAITING');
  }
  // A delivery report: the current message of the latest send step's trigger (its fallbacks included).
  const sent = (await tx.workflows.listSteps(run.organizationId, run.id)).filter((s) => s.index < env.index && s.triggerId).pop();
  const trigger = sent?.triggerId ? await tx.eventTriggers.findById(run.organizationId, sent.triggerId) : null;
  const message = trigger?.currentMessageId ? await tx.messages.findById(run.organizationId, trigger.currentMessageId) : null;
  if (message?.status === 'DELIVERED') return go('EVENT', step.onEvent);
  if (!message || trigger?.state === 'EXHAUSTED') return go('FAILED', step.onTimeout);
  if (due(env)) return go('TIMEOUT', step.onTimeout);
  const left = Math.ceil(((env.existing.resumeAt?.getTime() ?? 0) - env.now.getTime()) / 1000);
  await tx.jobs.enqueue(QUEUES.workflowStep, { runId: run.id }, { startAfterSeconds: Math.max(1, Math.min(DELIVERY_POLL_SECONDS, left)) });
  return { wait: env.existing.resumeAt ?? env.now };
}
