import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';

/**
 * Tracing for the adapters and hosts (docs/observability.md, docs/adr/0042-tracing.md). Off unless the host
 * started the SDK (hosts/tracing.ts calls `setTracingOn`); every caller checks `tracingOn()` first, so with
 * tracing off no span, carrier or context is ever made. Trace context crosses processes as W3C carriers
 * (`{ traceparent, tracestate? }`) in job data (`trace`) and in the delivery trace table.
 */
let on = false;

export function setTracingOn(value: boolean): void { on = value; }
export function tracingOn(): boolean { return on; }

/** W3C trace context headers of a span or context. */
export type TraceCarrier = Record<string, string>;

/** The job-data field carrying the trace of the work that enqueued the job. */
export const TRACE_FIELD = 'trace';

export function tracer() { return trace.getTracer('nkra'); }

/** The carrier of `ctx` (default: the active context), or null when there is no span in it. */
export function captureTrace(ctx: Context = context.active()): TraceCarrier | null {
  const carrier: TraceCarrier = {};
  propagation.inject(ctx, carrier);
  return carrier['traceparent'] ? carrier : null;
}

/** The context a carrier stands for (the root context when there is none or it is malformed). */
export function contextOf(carrier: unknown): Context {
  if (!carrier || typeof carrier !== 'object' || typeof (carrier as TraceCarrier)['traceparent'] !== 'string') return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, carrier as TraceCarrier);
}

/**
 * Contexts of work the worker is processing, by key (`messageId:<id>`, `eventId:<id>`): a batch handler
 * runs many jobs in one call, so the vendor or webhook client finds its job's span here instead of in
 * the active context.
 */
const working = new Map<string, Context>();
export const workContexts = {
  set(key: string, ctx: Context): void { working.set(key, ctx); },
  delete(key: string): void { working.delete(key); },
  /** The job's context, else the active one (a synchronous send in an HTTP request). */
  get(key: string): Context { return working.get(key) ?? context.active(); },
};

/** Runs `fn` in a new span (a child of `parent`), ended when it settles; a throw marks the span as an error. */
export async function inSpan<T>(name: string, kind: SpanKind, parent: Context, attributes: Attributes,
  fn: (span: Span) => Promise<T>, links: Array<{ context: ReturnType<Span['spanContext']> }> = []): Promise<T> {
  const span = tracer().startSpan(name, { kind, attributes, links }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), () => fn(span));
  } catch (error) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    span.end();
  }
}

export { SpanKind, SpanStatusCode };

/**
 * Job data carrying the trace of the work that enqueues it: a `<queue> publish` producer span, child of the
 * carrier already in the data (an accepted message's request, captured before group commit) or of the active
 * span. Data without either is returned as is (periodic work starts no trace); a `trace: null` is dropped.
 */
export function tracedJobData(queue: string, data: Record<string, unknown>): Record<string, unknown> {
  if (TRACE_FIELD in data && !data[TRACE_FIELD]) {
    // The caller said "no trace" (a group commit's member without one): never the leader's active context.
    const { [TRACE_FIELD]: _none, ...rest } = data;
    return rest;
  }
  const parent = data[TRACE_FIELD] ? contextOf(data[TRACE_FIELD]) : context.active();
  if (!trace.getSpanContext(parent)) return data;
  const span = tracer().startSpan(`${queue} publish`, { kind: SpanKind.PRODUCER, attributes: { 'messaging.system': 'pg-boss', 'messaging.destination.name': queue } }, parent);
  span.end();
  return { ...data, [TRACE_FIELD]: captureTrace(trace.setSpan(parent, span)) };
}
