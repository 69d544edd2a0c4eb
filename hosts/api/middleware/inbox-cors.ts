import type Koa from 'koa';

/** The browser-facing inbox API (docs/inbox.md). */
export const INBOX_BROWSER_PREFIX = '/inbox/v1/';

/**
 * CORS for the inbox's browser API: any origin may call it, because it uses no cookies or ambient
 * credentials (each request carries the subscriber's appId, id and hash explicitly), so a foreign
 * page learns nothing it was not given. Preflights are answered here; errors keep the headers so
 * the page can read the envelope.
 */
export function inboxCors(): Koa.Middleware {
  return async (ctx, next) => {
    if (!ctx.path.startsWith(INBOX_BROWSER_PREFIX)) return next();
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Access-Control-Expose-Headers', 'X-Request-Id, Retry-After');
    if (ctx.method === 'OPTIONS') {
      ctx.set('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
      ctx.set('Access-Control-Allow-Headers', 'Content-Type, X-Inbox-App-Id, X-Inbox-Subscriber-Id, X-Inbox-Subscriber-Hash, Last-Event-ID');
      ctx.set('Access-Control-Max-Age', '600');
      ctx.status = 204;
      return;
    }
    await next();
  };
}
