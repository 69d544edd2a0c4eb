import type Koa from 'koa';
import { context, propagation, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { SpanKind, SpanStatusCode, tracer } from '../../../adapters/telemetry/tracing.ts';

/**
 * With tracing on (docs/observability.md): every request in a SERVER span `<METHOD> <route>`, continuing
 * the caller's W3C `traceparent` when it sends one. Only the route template is recorded (`http.route`),
 * never the path itself (callback ids, opt-out tokens) nor the query or body. Installed only when on.
 */
export function traceRequests(): Koa.Middleware {
  return async (ctx, next) => {
    const parent = propagation.extract(ROOT_CONTEXT, ctx.headers);
    const span = tracer().startSpan(ctx.method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': ctx.method, 'url.scheme': ctx.protocol } }, parent);
    try {
      await context.with(trace.setSpan(parent, span), next);
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      const route = ctx.state['routePath'];
      if (typeof route === 'string') {
        span.updateName(`${ctx.method} ${route}`);
        span.setAttribute('http.route', route);
      }
      if (ctx.state['requestId']) span.setAttribute('nkra.request_id', String(ctx.state['requestId']));
      span.setAttribute('http.response.status_code', ctx.status);
      if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
  };
}
