import { QUEUES } from '../../../core/ports/job-queue.ts';
import { GetWorkflow } from '../../../core/use-cases/workflows/get-workflow.ts';
import { GetWorkflowRun } from '../../../core/use-cases/workflows/get-workflow-run.ts';
import { PutWorkflow } from '../../../core/use-cases/workflows/put-workflow.ts';
import { RunWorkflowStep } from '../../../core/use-cases/workflows/run-workflow-step.ts';
import { ResumeDueDelays } from '../../../core/use-cases/workflows/resume-due-delays.ts';
import { StartWorkflowRun } from '../../../core/use-cases/workflows/start-workflow-run.ts';
import { buildEvents } from '../events/events-fixtures.ts';

/** The event fixtures plus the workflow use cases; `work()` plays the worker: runs due workflow-step jobs, then delivers queued messages. */
export async function buildWorkflows(options: { balance?: number } = {}) {
  const e = await buildEvents({ ...options, inline: false });
  const { core } = e;
  const put = new PutWorkflow(core);
  const start = new StartWorkflowRun(core);
  const runner = new RunWorkflowStep(e.deps);
  const resumer = new ResumeDueDelays(core);
  const template = await e.template({ body: 'Hi {{firstName}}, order {{order}} has shipped', variables: ['firstName', 'order'] });
  const event = await e.createEvent.execute(e.scope, { name: 'Order shipped', slug: 'order.shipped', templateId: template.id });
  /** Jobs not yet due, with the clock time they become due. */
  const later: Array<{ runId: string; dueAt: number }> = [];
  return {
    ...e, put, start, runner, resumer, template, event, newTemplate: e.template,
    get: new GetWorkflow(core), timeline: new GetWorkflowRun(core),
    /** Resumes due delays (the worker's resumer) and runs every due workflow-step job (again until none is left), then delivers the queued messages. */
    async work(): Promise<void> {
      for (let round = 0; round < 20; round++) {
        await resumer.execute();
        for (const job of core.storage.jobs.take(QUEUES.workflowStep)) later.push({ runId: String(job.data['runId']), dueAt: core.clock.now().getTime() + job.startAfterSeconds * 1000 });
        const due = later.filter((j) => j.dueAt <= core.clock.now().getTime());
        if (due.length === 0) break;
        for (const job of due) later.splice(later.indexOf(job), 1);
        for (const job of due) await runner.execute(job.runId);
      }
      for (const job of core.storage.jobs.take(QUEUES.notificationSend)) await e.deliver.execute(String(job.data['messageId']));
    },
    later,
    async trigger(body: Record<string, unknown>) {
      const result = await start.execute(e.ctx, { event: 'order.shipped', ...body });
      if (!result.run) throw new Error('the event has no workflow');
      return result.run;
    },
  };
}
export type Workflows = Awaited<ReturnType<typeof buildWorkflows>>;
