/**
 * The caller's trace context (W3C `traceparent`, `tracestate`), captured when a send is accepted and carried
 * in its delivery jobs' data (`trace`), so the worker, the vendor call and the delivery report continue the
 * request's trace (docs/observability.md). Opaque to the core. Captured per request before group commit,
 * because the batch's transaction runs in the context of whichever request leads it. Absent when tracing
 * is off: nothing is captured or carried. Group commits (AcceptCoalescer, AcceptedAttemptRecorder) capture it
 * per caller and hand it on explicitly.
 */
export interface TraceCapture {
  /**
   * The active trace's carrier, or null when there is none. With `messageId`: the trace of the work on that
   * message when the host tracks one (its delivery job, whose batch may hold other messages' jobs).
   */
  current(messageId?: string): TraceCarrier | null;
}

/** W3C trace context headers, opaque to the core. */
export type TraceCarrier = Readonly<Record<string, string>>;
