import { context, trace } from '@opentelemetry/api';
import type { DeliveryReport } from '../../core/ports/vendor-adapter.ts';
import type { DeliveryTraceStore } from '../../adapters/telemetry/delivery-trace-store.ts';
import { contextOf, inSpan, SpanKind } from '../../adapters/telemetry/tracing.ts';

export type TraceReport = <T>(providers: readonly string[], report: DeliveryReport, apply: () => Promise<T>) => Promise<T>;

/**
 * With tracing on (docs/observability.md): a vendor's delivery report applied in a span `delivery report
 * <STATUS>` in its message's trace (a child of the vendor call recorded in `delivery_traces`), linked to
 * the callback's own HTTP request span. A report whose call was not recorded (sent with tracing off,
 * pruned) gets its span under the HTTP request instead.
 */
export function traceReports(store: DeliveryTraceStore): TraceReport {
  return async (providers, report, apply) => {
    const carrier = await store.find(providers, report.providerMessageId).catch(() => null);
    const request = trace.getActiveSpan()?.spanContext();
    const attributes = { 'nkra.report.status': report.status, 'nkra.report.vendor_status': report.vendorStatus, 'nkra.provider_message_id': report.providerMessageId };
    return inSpan(`delivery report ${report.status}`, SpanKind.INTERNAL, carrier ? contextOf(carrier) : context.active(), attributes, () => apply(),
      carrier && request ? [{ context: request }] : []);
  };
}
