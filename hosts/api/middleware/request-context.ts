import { randomUUID } from 'node:crypto';
import type Koa from 'koa';
import type { Logger } from '../../logger.ts';
import type { HttpMetrics } from '../metrics.ts';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** A provider's callback id is the secret of its callback URL (docs/providers.md, "Callback URLs"): never logged. */
export function loggedPath(path: string): string {
  return path.replace(/^(\/providers\/callbacks\/[^/]+\/)[^/]+/, '$1[redacted]');
}

/**
 * Gives each request an id (a caller's sane X-Request-Id, or a new UUID) returned as X-Request-Id,
 * logs one structured line per request and records route metrics.
 */
export function requestContext(logger: Logger, metrics: HttpMetrics): Koa.Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const incoming = ctx.get('x-request-id');
    const requestId = SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state['requestId'] = requestId;
    let log: Logger | undefined; // a pino child costs a few microseconds: made only when something logs
    Object.defineProperty(ctx.state, 'log', { get: () => (log ??= logger.child({ requestId })), enumerable: true, configurable: true });
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = (ctx.state['routePath'] as string | undefined) ?? 'unmatched';
      metrics.observe(ctx.method, route, ctx.status, seconds);
      const level = ctx.status >= 500 ? 'error' : 'info';
      if (logger.isLevelEnabled(level)) {
        ctx.state['log'][level]({ method: ctx.method, route, path: loggedPath(ctx.path), status: ctx.status, ms: Math.round(seconds * 1e4) / 10 }, 'request');
      }
    }
  };
}
