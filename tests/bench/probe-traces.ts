import { randomBytes } from 'node:crypto';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import { startTracing, type RunningTracing } from '../../hosts/tracing.ts';
import { fmtMs, pct } from './fairness-support.ts';

/**
 * `--trace` of bench:fairness: where a probe's accept-to-provider time goes, from the spans of its own trace
 * (docs/observability.md, "What one message's trace holds"). Tracing runs with `parentbased_always_off`: only
 * requests that bring a sampled `traceparent` (the probes) are traced, so the backlog's messages add no spans.
 * Segments of one probe: the API's request (acceptance, until the answer), the wait from the answer until
 * the worker's `notification-send process` span starts (publish, fetch), from then until the vendor call
 * starts (claim, provider slot), and the vendor call itself.
 */
export interface ProbeTraces {
  /** A sampled W3C traceparent for one probe of `group`. */
  traceparent(group: string): string;
  /** The segments' p50 / p90 / p99 per group, as markdown table rows. */
  report(): Promise<string[]>;
  stop(): Promise<void>;
}

type HrTime = [number, number];
const ms = (t: HrTime) => t[0] * 1000 + t[1] / 1e6;

export async function startProbeTracing(): Promise<ProbeTraces> {
  const spans: ReadableSpan[] = [];
  const exporter: SpanExporter = {
    export(batch, done) { spans.push(...batch); done({ code: 0 }); },
    async shutdown() {},
  };
  const tracing: RunningTracing | null = await startTracing({ env: { ...process.env, OTEL_TRACES_SAMPLER: 'parentbased_always_off' }, exporter });
  if (!tracing) throw new Error('tracing was on already');
  const groups = new Map<string, string>();
  return {
    traceparent(group) {
      const traceId = randomBytes(16).toString('hex');
      groups.set(traceId, group);
      return `00-${traceId}-${randomBytes(8).toString('hex')}-01`;
    },
    async report() {
      await tracing.flush();
      const byGroup = new Map<string, Record<'accept' | 'toWorker' | 'toVendor' | 'vendor', number[]>>();
      const byTrace = new Map<string, ReadableSpan[]>();
      for (const span of spans) {
        const id = span.spanContext().traceId;
        if (groups.has(id)) byTrace.set(id, [...(byTrace.get(id) ?? []), span]);
      }
      for (const [traceId, of] of byTrace) {
        const request = of.find((s) => s.name.startsWith('POST '));
        const process = of.find((s) => s.name === 'notification-send process');
        const send = of.find((s) => s.name.endsWith(' send') && s.name !== 'notification-send send');
        if (!request || !process || !send) continue;
        const group = groups.get(traceId)!;
        const row = byGroup.get(group) ?? { accept: [], toWorker: [], toVendor: [], vendor: [] };
        row.accept.push(ms(request.endTime as HrTime) - ms(request.startTime as HrTime));
        row.toWorker.push(ms(process.startTime as HrTime) - ms(request.endTime as HrTime));
        row.toVendor.push(ms(send.startTime as HrTime) - ms(process.startTime as HrTime));
        row.vendor.push(ms(send.endTime as HrTime) - ms(send.startTime as HrTime));
        byGroup.set(group, row);
      }
      const cell = (v: number[]) => `${fmtMs(pct(v, 50))} / ${fmtMs(pct(v, 90))} / ${fmtMs(pct(v, 99))}`;
      return [
        '| probes (traced) | n | request (accept) | answer -> worker process span | process span -> vendor call | vendor call |',
        '|---|---:|---|---|---|---|',
        ...[...byGroup].map(([group, r]) => `| ${group} | ${r.accept.length} | ${cell(r.accept)} | ${cell(r.toWorker)} | ${cell(r.toVendor)} | ${cell(r.vendor)} |`),
      ];
    },
    stop: () => tracing.shutdown(),
  };
}
