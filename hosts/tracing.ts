import { context, propagation, trace } from '@opentelemetry/api';
import type { Sampler, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace';
import { captureTrace, setTracingOn, tracingOn, workContexts } from '../adapters/telemetry/tracing.ts';
import type { TraceCapture } from '../core/ports/trace-capture.ts';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Whether the standard OTEL_* variables ask for traces (docs/observability.md). Off by default: on with
 * `OTEL_TRACES_EXPORTER` naming `otlp` or `console`, or, when it is unset, with an OTLP endpoint
 * (`OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`). `OTEL_SDK_DISABLED=true` and
 * `OTEL_TRACES_EXPORTER=none` keep it off.
 */
export function tracesExporters(env: Env): Array<'otlp' | 'console'> {
  if (env['OTEL_SDK_DISABLED']?.trim().toLowerCase() === 'true') return [];
  const named = env['OTEL_TRACES_EXPORTER']?.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  if (named?.length) return named.filter((n): n is 'otlp' | 'console' => n === 'otlp' || n === 'console');
  return env['OTEL_EXPORTER_OTLP_ENDPOINT'] || env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'] ? ['otlp'] : [];
}

/** OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG (the specification's values); default parentbased_always_on. */
export function samplerFrom(env: Env, sdk: typeof import('@opentelemetry/sdk-trace')): Sampler {
  const { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, TraceIdRatioBasedSampler } = sdk;
  const ratio = Number(env['OTEL_TRACES_SAMPLER_ARG'] ?? 1);
  const idRatio = () => new TraceIdRatioBasedSampler(Number.isFinite(ratio) && ratio >= 0 && ratio <= 1 ? ratio : 1);
  switch (env['OTEL_TRACES_SAMPLER']?.trim().toLowerCase()) {
    case 'always_on': return new AlwaysOnSampler();
    case 'always_off': return new AlwaysOffSampler();
    case 'traceidratio': return idRatio();
    case 'parentbased_always_off': return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio': return new ParentBasedSampler({ root: idRatio() });
    default: return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

export interface RunningTracing {
  /** Exports what is buffered. */
  flush(): Promise<void>;
  /** Exports what is buffered and turns tracing off again (process shutdown; tests). */
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  env?: Env;
  /** Tests: export to this exporter, span by span, whatever the variables say. */
  exporter?: SpanExporter;
}

/**
 * Starts the OpenTelemetry SDK for this process when the OTEL_* variables ask for it (or a test passes an
 * exporter); returns null, changing nothing, when they do not. Spans go through a BatchSpanProcessor
 * (OTEL_BSP_SCHEDULE_DELAY, OTEL_BSP_MAX_QUEUE_SIZE, OTEL_BSP_MAX_EXPORT_BATCH_SIZE, OTEL_BSP_EXPORT_TIMEOUT)
 * to the OTLP/HTTP exporter, which reads its own endpoint, headers and timeout variables. The resource
 * is `service.name` (OTEL_SERVICE_NAME, default `nkra`) plus OTEL_RESOURCE_ATTRIBUTES. Call before
 * building the containers: the API middleware and the traced adapters are installed only when it is on.
 */
export async function startTracing(options: TracingOptions = {}): Promise<RunningTracing | null> {
  const env = options.env ?? process.env;
  const wanted = tracesExporters(env);
  if ((!options.exporter && wanted.length === 0) || tracingOn()) return null;
  // Loaded only when on: with tracing off not even the SDK's modules are in the process.
  const [sdk, { OTLPTraceExporter }, { AsyncLocalStorageContextManager }, { W3CTraceContextPropagator }, resources] = await Promise.all([
    import('@opentelemetry/sdk-trace'), import('@opentelemetry/exporter-trace-otlp-http'), import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/core'), import('@opentelemetry/resources')]);
  const { BatchSpanProcessor, ConsoleSpanExporter, SimpleSpanProcessor, TracerProvider } = sdk;
  const { detectResources, resourceAttributesEnvDetector, resourceFromAttributes, serviceNameEnvDetector } = resources;
  const exporters = options.exporter ? [options.exporter] : wanted.map((name) => (name === 'otlp' ? new OTLPTraceExporter() : new ConsoleSpanExporter()));
  const number = (name: string) => (env[name] && Number.isFinite(Number(env[name])) ? Number(env[name]) : undefined);
  const spanProcessors: SpanProcessor[] = exporters.map((exporter) => (options.exporter ? new SimpleSpanProcessor({ exporter }) : new BatchSpanProcessor({
    exporter,
    ...defined({ scheduledDelayMillis: number('OTEL_BSP_SCHEDULE_DELAY'), maxQueueSize: number('OTEL_BSP_MAX_QUEUE_SIZE'),
      maxExportBatchSize: number('OTEL_BSP_MAX_EXPORT_BATCH_SIZE'), exportTimeoutMillis: number('OTEL_BSP_EXPORT_TIMEOUT') }),
  })));
  const resource = resourceFromAttributes({ 'service.name': 'nkra' }).merge(detectResources({ detectors: [resourceAttributesEnvDetector, serviceNameEnvDetector] }));
  const provider = new TracerProvider({ resource, sampler: samplerFrom(env, sdk), spanProcessors });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  setTracingOn(true);
  return {
    flush: () => provider.forceFlush(),
    async shutdown() {
      setTracingOn(false);
      await provider.shutdown().catch(() => undefined);
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}

/** The core's TraceCapture when tracing is on (send requests carry their trace into delivery jobs), else undefined. */
export function traceCapture(): TraceCapture | undefined {
  return tracingOn() ? { current: (messageId) => captureTrace(messageId === undefined ? undefined : workContexts.get(`messageId:${messageId}`)) } : undefined;
}

function defined<T extends Record<string, unknown>>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as never;
}
