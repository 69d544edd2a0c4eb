import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { AppError } from '../../../core/errors.ts';
import { buildOpenApiDocument } from '../openapi.ts';
import type { RouteDefinition } from '../route.ts';

/** Swagger UI comes from the installed swagger-ui-dist package (no CDN: the service may run offline). */
const SWAGGER_UI_PACKAGE = createRequire(import.meta.url).resolve('swagger-ui-dist/package.json');
const SWAGGER_UI_DIR = path.dirname(SWAGGER_UI_PACKAGE);
const SWAGGER_UI_VERSION = String((JSON.parse(readFileSync(SWAGGER_UI_PACKAGE, 'utf8')) as { version?: unknown }).version ?? '0');

/** The only files served under /docs/assets/: an allow-list, so no other file of the package (or the disk) is reachable. */
const ASSETS: ReadonlyMap<string, string> = new Map([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
  ['swagger-ui-standalone-preset.js', 'text/javascript; charset=utf-8'],
]);
const assetCache = new Map<string, Promise<Buffer>>();

const INIT_SCRIPT = `
window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout'
  });
});
`;
const asset = (file: string): string => `/docs/assets/${file}?v=${encodeURIComponent(SWAGGER_UI_VERSION)}`;
const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Nkra API</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${asset('swagger-ui.css')}">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${asset('swagger-ui-bundle.js')}"></script>
<script src="${asset('swagger-ui-standalone-preset.js')}"></script>
<script>${INIT_SCRIPT}</script>
</body>
</html>
`;
/** Scripts only from this origin plus the one inline initializer (by hash); Swagger UI sets inline styles and uses data: icons. */
const DOCS_CSP = [
  "default-src 'none'",
  `script-src 'self' 'sha256-${createHash('sha256').update(INIT_SCRIPT).digest('base64')}'`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * GET /openapi.json (built once, here, from `routes` plus the two documentation routes), GET /docs
 * (Swagger UI) and its static assets. The asset route is left out of the document: it is the page's plumbing.
 */
export function docsRoutes(routes: readonly RouteDefinition[]): RouteDefinition[] {
  const documented: RouteDefinition[] = [
    {
      method: 'GET', path: '/openapi.json', tag: 'Docs', summary: 'This OpenAPI 3.1 document',
      auth: 'none', custom: true, responses: { 200: 'The OpenAPI document (not wrapped in the envelope)' },
      handler: async ({ koa }) => {
        koa.type = 'application/json';
        koa.set('Cache-Control', 'no-cache');
        koa.body = documentJson;
      },
    },
    {
      method: 'GET', path: '/docs', tag: 'Docs', summary: 'Human-readable API documentation (Swagger UI)',
      auth: 'none', custom: true, responses: { 200: 'An HTML page' },
      handler: async ({ koa }) => {
        koa.type = 'text/html; charset=utf-8';
        koa.set('Content-Security-Policy', DOCS_CSP);
        koa.set('X-Content-Type-Options', 'nosniff');
        koa.set('Referrer-Policy', 'no-referrer');
        koa.set('Cache-Control', 'no-cache');
        koa.body = DOCS_PAGE;
      },
    },
  ];
  const documentJson = JSON.stringify(buildOpenApiDocument([...routes, ...documented]));
  return [...documented, assetRoute()];
}

function assetRoute(): RouteDefinition {
  return {
    method: 'GET', path: '/docs/assets/:file', tag: 'Docs', summary: 'A Swagger UI asset of the docs page',
    auth: 'none', custom: true, responses: { 200: 'The asset', 404: 'NOT_FOUND (not one of the page\'s assets)' },
    handler: async ({ koa, params }) => {
      const file = params['file'] ?? '';
      const type = ASSETS.get(file);
      if (!type) throw new AppError('NOT_FOUND', 'No such docs asset');
      const content = await readAsset(file);
      koa.type = type;
      koa.set('Cache-Control', 'public, max-age=86400');
      koa.set('X-Content-Type-Options', 'nosniff');
      koa.body = content;
    },
  };
}

/** Read once, on first request, and kept (about 2 MB); a failed read is retried next time. */
function readAsset(file: string): Promise<Buffer> {
  let content = assetCache.get(file);
  if (!content) {
    content = readFile(path.join(SWAGGER_UI_DIR, file));
    content.catch(() => assetCache.delete(file));
    assetCache.set(file, content);
  }
  return content;
}
