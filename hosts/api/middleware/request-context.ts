import { randomUUID } from 'node:crypto';
import type Koa from 'koa';
import type { Logger } from '../../logger.ts';
import type { HttpMetrics } from '../metrics.ts';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;
/**
 * Route parameters that carry a credential (opt-out link tokens, a provider's callback id: the secret of its
 * callback URL, docs/providers.md "Callback URLs"): never written to logs.
 */
const SECRET_PARAM = /token|secret|key|hash|signature|code|callbackId/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A readable path word such as a vendor key (`africas-talking-sms`): never a token, so kept. */
const WORDS = /^[a-z]+(-[a-z]+)*$/;
const REDACTED = '[redacted]';

/**
 * The path as logged: a matched route's template with its parameters filled in, except credentials
 * (`/u/[redacted]`); an unmatched path with every long segment that is neither a UUID nor plain words redacted (a mistyped
 * token link must not land in the logs either). Query strings are never logged.
 */
export function loggedPath(path: string, route: string | undefined, params: Record<string, string> | undefined): string {
  if (route && params) {
    return route.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => (SECRET_PARAM.test(name) ? REDACTED : encodeURIComponent(params[name] ?? '')));
  }
  return path.split('/').map((segment) => (segment.length >= 16 && !UUID.test(segment) && !WORDS.test(segment) ? REDACTED : segment)).join('/');
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
        const path = loggedPath(ctx.path, ctx.state['routePath'] as string | undefined, (ctx as unknown as { params?: Record<string, string> }).params);
        ctx.state['log'][level]({ method: ctx.method, route, path, status: ctx.status, ms: Math.round(seconds * 1e4) / 10 }, 'request');
      }
    }
  };
}
