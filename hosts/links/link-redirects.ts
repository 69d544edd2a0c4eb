import Koa from 'koa';
import { CachedLinkSettings, CachedTrackedLinks } from '../../adapters/cache/cached-tracked-links.ts';
import { hostOf } from '../../core/domain/tracked-links.ts';
import type { Clock } from '../../core/ports/clock.ts';
import type { IdGenerator } from '../../core/ports/id-generator.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { FollowTrackedLink } from '../../core/use-cases/links/follow-tracked-link.ts';
import type { RouteDefinition } from '../api/route.ts';
import type { Logger } from '../logger.ts';

/** How often buffered clicks are written (docs/links.md, "Speed": at most this much is lost on a crash). */
export const CLICK_FLUSH_MS = 1_000;

/** The redirect's use case with its caches, and the timer that writes its clicks. */
export interface LinkRedirects {
  follow: FollowTrackedLink;
  /** Starts flushing clicks every CLICK_FLUSH_MS. */
  start(): void;
  /** Drops the cached custom domains (one was just verified or changed in this process). */
  forgetDomains(): void;
  /** Stops the timer and writes every buffered click (graceful shutdown). */
  stop(): Promise<void>;
}

export function linkRedirects(deps: { storage: Storage; clock: Clock; ids: IdGenerator; linkBaseUrl: string; logger: Logger; cacheSize?: number }): LinkRedirects {
  const domains = new CachedLinkSettings(deps.storage.linkSettings);
  const follow = new FollowTrackedLink({
    storage: deps.storage, clock: deps.clock, ids: deps.ids,
    links: new CachedTrackedLinks(deps.storage.trackedLinks, deps.cacheSize), domains,
    platformHost: hostOf(deps.linkBaseUrl) ?? 'localhost',
  });
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  const flush = () => {
    running = running.then(() => follow.flush()).catch((error: unknown) => deps.logger.error({ err: error, pending: follow.pending }, 'click flush failed; retried next time'));
    return running;
  };
  return {
    follow,
    forgetDomains: () => domains.forget(''),
    start() { timer ??= setInterval(() => void flush(), CLICK_FLUSH_MS); timer.unref(); },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await flush();
      if (follow.pending > 0) await flush(); // one retry at shutdown
    },
  };
}

/** A transparent 1x1 GIF (the open pixel). */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const NOT_FOUND_HTML = '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">'
  + '<title>Link not valid</title></head><body style="font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem">'
  + '<h1>This link is not valid</h1><p>It may have expired, or it was not copied whole from the message.</p></body></html>';

/** Answers one redirect (or pixel) request: 302 to the original URL, the GIF, or the 404 page. */
export async function answerLink(ctx: Koa.Context, follow: FollowTrackedLink, code: string, open: boolean): Promise<void> {
  const target = await follow.execute({
    code, open, host: ctx.hostname.toLowerCase(), method: ctx.method, userAgent: ctx.get('user-agent') || undefined, client: ctx.ip,
  });
  ctx.set('Cache-Control', 'private, no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  if (target === null) {
    ctx.status = 404;
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
    ctx.body = NOT_FOUND_HTML;
  } else if (open) {
    ctx.type = 'image/gif';
    ctx.body = PIXEL;
  } else {
    ctx.status = 302;
    ctx.set('Location', /^[\x21-\x7e]*$/.test(target) ? target : encodeURI(decodeURIComponentSafe(target)));
    ctx.body = '';
  }
}

/** Location must be ASCII: a URL written with non-ASCII characters is percent-encoded, one already encoded stays as it is. */
function decodeURIComponentSafe(url: string): string {
  try { return decodeURI(url); } catch { return url; }
}

const PIXEL_PATH = /^([0-9A-Za-z]{12})\.gif$/;

/** The redirect in the API host's route table (documented in the OpenAPI document). */
export function linkRedirectRoutes(follow: FollowTrackedLink): RouteDefinition[] {
  return [
    {
      method: 'GET', path: '/l/:code', tag: 'Links', auth: 'none', custom: true,
      summary: 'A tracked short link (docs/links.md): 302 to the address the message carried; HEAD answers the same without counting a click',
      responses: { 302: 'Location: the original URL', 404: 'text/html: unknown, expired or another domain\'s code' },
      handler: async ({ params, koa }) => answerLink(koa, follow, params['code'] ?? '', false),
    },
    {
      method: 'GET', path: '/l/o/:pixel', tag: 'Links', auth: 'none', custom: true,
      summary: 'An email\'s open-tracking pixel ({code}.gif), when the organization turned open tracking on (unreliable: docs/links.md)',
      responses: { 200: 'image/gif 1x1', 404: 'text/html: unknown or expired' },
      handler: async ({ params, koa }) => answerLink(koa, follow, PIXEL_PATH.exec(params['pixel'] ?? '')?.[1] ?? '', true),
    },
  ];
}

/** `npm run links`: a minimal Koa app with only the redirect (and pixel) routes. */
export function createLinksApp(follow: FollowTrackedLink, options: { proxy?: boolean } = {}): Koa {
  const app = new Koa({ proxy: options.proxy ?? false });
  app.silent = true;
  app.use(async (ctx) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    const m = /^\/l\/(?:o\/([^/]+)|([^/]+))$/.exec(ctx.path);
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || !m) {
      ctx.status = m ? 405 : 404;
      if (m) ctx.set('Allow', 'GET, HEAD');
      return;
    }
    try {
      if (m[1] !== undefined) await answerLink(ctx, follow, PIXEL_PATH.exec(m[1])?.[1] ?? '', true);
      else await answerLink(ctx, follow, m[2]!, false);
    } catch (error) {
      ctx.app.emit('error', error, ctx);
      ctx.status = 503;
      ctx.body = '';
    }
  });
  return app;
}
