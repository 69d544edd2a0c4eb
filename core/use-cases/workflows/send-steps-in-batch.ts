import type { WorkflowRun, WorkflowStep, WorkflowStepRun } from '../../domain/workflow.ts';
import { isFinalFailure, takeNextStep, type TriggerDeps } from '../events/trigger-steps.ts';
import { acceptRequestsIn, type AcceptRequest } from '../messaging/accept-messages.ts';
import { prepareSendStep, recordSendTrigger, runContext, type PreparedSendStep } from './workflow-send.ts';

type SendStep = Extract<WorkflowStep, { type: 'send' }>;

const sendAt = (run: WorkflowRun): SendStep | null => {
  const step = run.steps[run.cursor];
  return step?.type === 'send' ? step : null;
};

/** The item variable of the digest before the send step, if any (its template lists the collected items). */
function digestItemVariable(run: WorkflowRun): string | undefined {
  const digest = run.steps.slice(0, run.cursor).reverse().find((s) => s.type === 'digest');
  return digest?.type === 'digest' ? digest.itemVariable : undefined;
}

/**
 * The batch path of send steps (docs/adr/0044-workflow-exactly-once.md, "Sends in batches"): the runs of a
 * fetched `workflow-step` batch standing at a send step (a digest's owners after their flush, mostly) are
 * accepted through the send pipeline together, as one group commit (`acceptRequestsIn`: each run its own
 * request and idempotency key `workflow:<run>:<index>`, one wallet lock per organization for the batch instead
 * of one per run), in one transaction that also records each run's event trigger, its step row (DONE, SENT)
 * and its new cursor. A run another job holds is left to it (SKIP LOCKED); a request the pipeline does not
 * accept here (refused balance, a replayed key, one to retry alone) is left to the one-by-one path, which
 * gives it its error and retry rule. Answers the runs it sent.
 */
export class SendStepsInBatch {
  readonly #deps: TriggerDeps;
  constructor(deps: TriggerDeps) { this.#deps = deps; }

  async execute(runIds: readonly string[]): Promise<Set<string>> {
    if (runIds.length < 2) return new Set();
    const sentMessages: Array<{ triggerId: string; messageId: string; organizationId: string }> = [];
    const taken = await this.#deps.storage.transaction(async (tx) => {
      const runs = (await tx.workflows.lockRunningRuns(runIds)).filter((r) => sendAt(r) !== null);
      if (runs.length === 0) return new Set<string>();
      const pricing = await tx.pricing.listActive();
      const sends: PreparedSendStep[] = [];
      for (const run of runs) sends.push(await prepareSendStep(tx, this.#deps, run, run.cursor, sendAt(run)!, digestItemVariable(run), pricing));
      const requests: AcceptRequest[] = runs.map((run, i) => ({
        ctx: runContext(run), prepared: [sends[i]!.prepared], async: true, idempotency: { key: sends[i]!.key, requestHash: this.#deps.secrets.sha256(sends[i]!.key) },
      }));
      const outcomes = await acceptRequestsIn(tx, this.#deps, requests, this.#deps.ids.next());
      const now = this.#deps.clock.now();
      const steps: WorkflowStepRun[] = [];
      const moves = new Map<string, Array<{ id: string; status: 'RUNNING' | 'COMPLETED'; cursor: number }>>();
      const done = new Set<string>();
      for (const [i, run] of runs.entries()) {
        const accepted = outcomes[i]?.accepted;
        if (!accepted || accepted.replayed) continue;
        const message = accepted.messages[0]!;
        const trigger = await recordSendTrigger(tx, this.#deps, run, sends[i]!, message);
        steps.push({
          runId: run.id, organizationId: run.organizationId, index: run.cursor, type: 'send', status: 'DONE', outcome: 'SENT', messageId: message.id, triggerId: trigger.id,
          resumeAt: null, detail: { channel: message.channel, recipient: message.recipient }, startedAt: now, finishedAt: now,
        });
        const next = run.cursor + 1;
        const list = moves.get(run.organizationId) ?? [];
        list.push({ id: run.id, status: next >= run.steps.length ? 'COMPLETED' : 'RUNNING', cursor: next });
        moves.set(run.organizationId, list);
        if (isFinalFailure(message)) sentMessages.push({ triggerId: trigger.id, messageId: message.id, organizationId: run.organizationId });
        if (next >= run.steps.length) done.add(run.id);
      }
      await tx.workflows.claimSteps(steps);
      for (const [organizationId, list] of moves) await tx.workflows.moveRuns(organizationId, list, now);
      return done;
    });
    // A message refused at acceptance (fraud, suppression) falls back at once, as an event trigger's does.
    for (const sent of sentMessages) await takeNextStep(this.#deps, sent.triggerId, sent.messageId);
    return taken;
  }
}
