import { context, trace, type Context } from '@opentelemetry/api';
import { contextOf, SpanKind, SpanStatusCode, TRACE_FIELD, tracer, workContexts } from '../../adapters/telemetry/tracing.ts';
import { CompletedWith } from './job-handler.ts';

interface Job { id: string; data: Record<string, unknown> }
/** Runs `fn` in the context of the batch's job at `index`. */
export type WithinJob = <T>(index: number, fn: () => Promise<T>) => Promise<T>;

/** Job-data ids the vendor and webhook clients look their job's span up by (adapters/telemetry/tracing.ts). */
const WORK_KEYS = ['messageId', 'eventId'] as const;

/**
 * With tracing on (docs/observability.md): each fetched job whose data carries a trace (`trace`, put there
 * by whoever enqueued it) gets a CONSUMER span `<queue> process`, a child of that trace, for as long as its
 * batch runs, ended with the job's outcome. A batch of one runs in its job's context; in a larger batch the
 * vendor and webhook clients find their job's span by message or event id. Jobs without a trace (schedules,
 * maintenance) start none.
 */
export async function traceJobs(queue: string, jobs: readonly Job[], run: (within: WithinJob) => Promise<readonly unknown[]>): Promise<readonly unknown[]> {
  const traced = jobs.map((job) => {
    if (!job.data[TRACE_FIELD]) return null;
    const parent = contextOf(job.data[TRACE_FIELD]);
    const span = tracer().startSpan(`${queue} process`, {
      kind: SpanKind.CONSUMER, attributes: { 'messaging.system': 'pg-boss', 'messaging.destination.name': queue, 'messaging.message.id': job.id },
    }, parent);
    const ctx = trace.setSpan(parent, span);
    const keys = WORK_KEYS.flatMap((key) => (typeof job.data[key] === 'string' ? [`${key}:${job.data[key]}`] : []));
    for (const key of keys) workContexts.set(key, ctx);
    return { span, ctx, keys };
  });
  const within: WithinJob = (index, fn) => {
    const ctx: Context | undefined = traced[index]?.ctx;
    return ctx ? context.with(ctx, fn) : fn();
  };
  let outcomes: readonly unknown[] = [];
  try {
    outcomes = await (jobs.length === 1 ? within(0, () => run(within)) : run(within));
    return outcomes;
  } finally {
    traced.forEach((t, i) => {
      if (!t) return;
      const error = outcomes[i];
      if (error && !(error instanceof CompletedWith)) t.span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      t.span.end();
      for (const key of t.keys) workContexts.delete(key);
    });
  }
}
