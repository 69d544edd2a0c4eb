import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type Koa from 'koa';

/** Where `npm run build:web` (and so `npm ci`, through `prepare`) puts the dashboard. */
export const DEFAULT_WEB_ROOT = path.resolve(import.meta.dirname, '../../web/dist');

/**
 * The dashboard's client-side pages: only these paths answer index.html (for a browser asking for
 * HTML), so every API path, including unknown ones, keeps its JSON answers and 404 envelope.
 */
const SPA_PATHS = ['/', '/sign-in', '/sign-up', '/forgot-password', '/reset-password', '/sso', '/sso/callback'];
const isSpaPath = (p: string): boolean => SPA_PATHS.includes(p) || p === '/app' || p.startsWith('/app/');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml',
  '.png': 'image/png', '.ico': 'image/x-icon', '.woff2': 'font/woff2', '.json': 'application/json', '.txt': 'text/plain; charset=utf-8',
};

/** The dashboard calls only its own origin; recharts sets inline styles on its SVG. */
const CSP = [
  "default-src 'none'", "script-src 'self'", "style-src 'self' 'unsafe-inline'", "img-src 'self' data:", "font-src 'self'",
  "connect-src 'self'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
].join('; ');

/**
 * Serves the built dashboard (hosts/web/dist): hashed files under /assets/ (listed once at start, so
 * nothing else on disk is reachable) and index.html for the dashboard's page paths when the request
 * accepts text/html. Placed after the router, so API routes always win. Without a build, the page
 * paths answer a short HTML note saying how to build it; API behaviour is unchanged either way.
 */
export function serveWebApp(webRoot: string): Koa.Middleware {
  const built = existsSync(path.join(webRoot, 'index.html'));
  const index = built ? readFileSync(path.join(webRoot, 'index.html')) : null;
  const assetsDir = path.join(webRoot, 'assets');
  const assets = new Set(built && existsSync(assetsDir) ? readdirSync(assetsDir) : []);
  const cache = new Map<string, Promise<Buffer>>();

  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path.startsWith('/assets/')) {
      const file = ctx.path.slice('/assets/'.length);
      if (!assets.has(file)) return next();
      let content = cache.get(file);
      if (!content) {
        content = readFile(path.join(assetsDir, file));
        content.catch(() => cache.delete(file));
        cache.set(file, content);
      }
      ctx.type = TYPES[path.extname(file)] ?? 'application/octet-stream';
      ctx.set('Cache-Control', 'public, max-age=31536000, immutable'); // file names carry a content hash
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.body = await content;
      return;
    }
    if (!isSpaPath(ctx.path) || !(ctx.get('accept') ?? '').includes('text/html')) return next();
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('Content-Security-Policy', CSP);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    if (index) { ctx.body = index; return; }
    ctx.status = 503;
    ctx.body = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Nkra</title></head><body>'
      + '<h1>The dashboard is not built</h1><p>Run <code>npm run build:web</code> (npm ci does it through the prepare script), then reload. '
      + 'The API works without it: see <a href="/docs">/docs</a>.</p></body></html>';
  };
}
