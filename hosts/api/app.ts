import Koa from 'koa';
import Router from '@koa/router';
import { koaBody } from 'koa-body';
import { AppError } from '../../core/errors.ts';
import type { Logger } from '../logger.ts';
import { authenticate, type Authenticators } from './middleware/authenticate.ts';
import { errorEnvelope } from './middleware/error-envelope.ts';
import { refuseNul } from './middleware/nul-guard.ts';
import { refuseRepeatedQuery } from './middleware/query-guard.ts';
import { readRawBody } from './middleware/raw-body.ts';
import { multipartBody, removeUploads } from './middleware/multipart.ts';
import { requestContext } from './middleware/request-context.ts';
import { serveWebApp } from './middleware/web-app.ts';
import { inboxCors } from './middleware/inbox-cors.ts';
import { traceRequests } from './middleware/tracing.ts';
import { tracingOn } from '../../adapters/telemetry/tracing.ts';
import type { HttpMetrics } from './metrics.ts';
import type { RouteDefinition } from './route.ts';

export interface AppOptions {
  routes: readonly RouteDefinition[];
  auth: Authenticators;
  logger: Logger;
  metrics: HttpMetrics;
  bodyLimitBytes: number;
  /** Trust X-Forwarded-For (behind a reverse proxy). */
  proxy?: boolean;
  /** The built dashboard to serve at `/` (hosts/web/dist); null serves none. */
  webRoot?: string | null;
  /** Send Strict-Transport-Security (the service is reached over https: PUBLIC_URL). */
  hsts?: boolean;
}

/** Methods whose JSON body is parsed (and must be application/json). */
const BODY_METHODS: readonly string[] = ['POST', 'PUT', 'PATCH', 'DELETE'];

/** Builds the Koa application from the route table. No I/O happens here. */
export function createApp(options: AppOptions): Koa {
  const app = new Koa({ proxy: options.proxy ?? false });
  app.silent = true;
  if (tracingOn()) app.use(traceRequests()); // off: not installed at all
  app.use(requestContext(options.logger, options.metrics));
  app.use(securityHeaders(options.hsts ?? false));
  app.use(inboxCors());
  app.use(errorEnvelope());

  const jsonBody = koaBody({
    json: true, urlencoded: false, text: false, multipart: false, jsonStrict: true,
    jsonLimit: options.bodyLimitBytes, parsedMethods: BODY_METHODS as never,
  });

  const router = new Router();
  for (const route of options.routes) {
    // Bodiless methods (GET, and HEAD through it) skip the content-type check and the parser: both are no-ops there, and cost on the hot path.
    const parsesJson = BODY_METHODS.includes(route.method) && !route.rawBody && !route.custom && !route.multipart;
    const handle: Koa.Middleware = async (ctx) => {
      ctx.state['routePath'] = route.path;
      refuseRepeatedQuery(ctx.query);
      const principals = (ctx.state['principals'] as Awaited<ReturnType<typeof authenticate>> | undefined) ?? await authenticate(ctx, route, options.auth);
      const body = route.rawBody ? await readRawBody(ctx.req, options.bodyLimitBytes) : (ctx.request as unknown as { body?: unknown }).body;
      const query = ctx.query as Record<string, string | undefined>;
      const params = (ctx as unknown as { params: Record<string, string> }).params;
      refuseNul({ params, query, body });
      const result = await route.handler({
        body, query, params,
        user: principals.user, tenant: principals.tenant,
        ip: ctx.ip, requestId: String(ctx.state['requestId']), headers: ctx.headers, koa: ctx,
      });
      if (route.custom || !result) return;
      ctx.status = result.status ?? 200;
      ctx.body = { success: true, data: result.data };
    };
    const markRoute: Koa.Middleware = async (ctx, next) => { ctx.state['routePath'] = route.path; refuseRepeatedQuery(ctx.query); await next(); };
    const chain = route.multipart ? [markRoute, authenticateFirst(route, options.auth), multipartBody(route.multipart.maxBytes), removeUploads(), handle]
      : parsesJson ? [markRoute, rejectNonJson(route), jsonBody, handle] : [handle];
    router.register(route.path, [route.method], chain, { name: `${route.method} ${route.path}` });
  }
  app.use(router.routes());
  if (options.webRoot) app.use(serveWebApp(options.webRoot));
  app.use(notFoundOrWrongMethod(router));
  return app;
}

/**
 * On every answer: no MIME sniffing, no Referer leaking paths with ids or tokens to other sites, no framing
 * (X-Frame-Options for old browsers; clickjacking of the opt-out or checkout buttons), and HSTS when the
 * service is reached over https. An HTML answer without its own Content-Security-Policy (the opt-out and
 * sandbox checkout pages, HTML error pages) gets STATIC_PAGE_CSP: no script, inline styles, forms to itself,
 * never framed. The dashboard, docs and inbox example set their own, each with frame-ancestors 'none'.
 */
function securityHeaders(hsts: boolean): Koa.Middleware {
  return async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('X-Frame-Options', 'DENY');
    if (hsts) ctx.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    try {
      await next();
    } finally {
      if (ctx.response.is('html') && !ctx.response.get('Content-Security-Policy')) ctx.set('Content-Security-Policy', STATIC_PAGE_CSP);
    }
  };
}

export const STATIC_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** Multipart routes check credentials before reading (and storing) the upload. */
function authenticateFirst(route: RouteDefinition, auth: Authenticators): Koa.Middleware {
  return async (ctx, next) => {
    ctx.state['principals'] = await authenticate(ctx, route, auth);
    await next();
  };
}

/** A JSON route given a body of another type answers 415 instead of silently seeing `{}`. */
function rejectNonJson(route: RouteDefinition): Koa.Middleware {
  return async (ctx, next) => {
    const hasBody = Number(ctx.get('content-length') || 0) > 0 || ctx.get('transfer-encoding') !== '';
    if (!route.rawBody && !route.custom && hasBody && BODY_METHODS.includes(ctx.method) && !ctx.is('application/json', '+json')) {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json');
    }
    await next();
  };
}

function notFoundOrWrongMethod(router: Router): Koa.Middleware {
  return async (ctx) => {
    const allowed = new Set<string>();
    for (const layer of router.stack) {
      if (layer.match(ctx.path)) layer.methods.forEach((m) => allowed.add(m));
    }
    allowed.delete('HEAD');
    if (allowed.size > 0) throw new AppError('METHOD_NOT_ALLOWED', `${ctx.method} is not allowed on ${ctx.path}`, { allow: [...allowed] });
    throw new AppError('NOT_FOUND', `No route for ${ctx.method} ${ctx.path}`);
  };
}
