import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const INDEX = '<!doctype html><title>Nkra dashboard</title><script type="module" src="/assets/index-abc123.js"></script>';

describe('HTTP: the dashboard served at / (hosts/api/middleware/web-app.ts)', () => {
  let dir: string;
  let app: TestApp;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'nkra-web-'));
    await mkdir(path.join(dir, 'assets'));
    await writeFile(path.join(dir, 'index.html'), INDEX);
    await writeFile(path.join(dir, 'assets', 'index-abc123.js'), 'console.log("nkra")');
    await writeFile(path.join(dir, 'secret.txt'), 'not for the web');
    app = await startTestApp({ webRoot: dir });
  });
  after(async () => { await app.close(); await rm(dir, { recursive: true, force: true }); });

  it('answers index.html with a strict CSP for the dashboard pages a browser opens (/, /app/..., /reset-password)', async () => {
    for (const p of ['/', '/app', '/app/logs/123', '/reset-password?token=abc', '/sign-in', '/sign-up', '/forgot-password']) {
      const res = await app.api.get(p, {}, HTML);
      expect(res.status, p).to.equal(200);
      expect(res.headers.get('content-type'), p).to.match(/^text\/html/);
      expect(res.text, p).to.equal(INDEX);
      expect(res.headers.get('content-security-policy'), p).to.include("script-src 'self'").and.include("frame-ancestors 'none'");
      expect(res.headers.get('cache-control'), p).to.equal('no-cache');
    }
  });

  it('serves the hashed build files with a long cache, and nothing else from the disk', async () => {
    const js = await app.api.get('/assets/index-abc123.js');
    expect(js.status).to.equal(200);
    expect(js.headers.get('content-type')).to.match(/^text\/javascript/);
    expect(js.headers.get('cache-control')).to.include('immutable');
    expect(js.text).to.equal('console.log("nkra")');
    for (const p of ['/assets/missing.js', '/assets/../secret.txt', '/assets/%2e%2e%2fsecret.txt', '/secret.txt', '/index.html']) {
      const res = await app.api.get(p, {}, HTML);
      expect(res.status, p).to.equal(404);
      expect(res.body, p).to.deep.include({ success: false });
      expect(res.text, p).to.not.include('not for the web');
    }
  });

  it('keeps the API: JSON routes, the JSON 404 envelope for unknown routes (even for a browser), /docs, /openapi.json, /health', async () => {
    const unknown = await app.api.get('/nope', {}, HTML);
    expect(unknown.status).to.equal(404);
    expect(unknown.body.error.code).to.equal('NOT_FOUND');
    const unknownApi = await app.api.get('/templates/x/y', {}, HTML);
    expect(unknownApi.status).to.equal(404);
    expect(unknownApi.body.success).to.equal(false);
    const templates = await app.api.get('/templates', {}, HTML);
    expect(templates.status).to.equal(401);
    expect(templates.body.error.code).to.equal('UNAUTHORIZED');
    expect((await app.api.get('/openapi.json', {}, HTML)).body.openapi).to.match(/^3\./);
    expect((await app.api.get('/docs', {}, HTML)).text).to.include('swagger-ui');
    expect((await app.api.get('/health')).body.status).to.be.oneOf(['ok', 'degraded']);
  });

  it('answers JSON clients on the page paths as before (no HTML unless it is asked for), and refuses other methods there', async () => {
    const json = await app.api.get('/', {}, { accept: 'application/json' });
    expect(json.status).to.equal(404);
    expect(json.body.error.code).to.equal('NOT_FOUND');
    const any = await app.api.get('/app', {}, { accept: '*/*' });
    expect(any.status).to.equal(404);
    const post = await app.api.post('/app', {}, {}, HTML);
    expect(post.status).to.equal(404);
    expect(post.body.success).to.equal(false);
  });

  it('without a build, the page paths explain how to build the dashboard while the API is unchanged', async () => {
    const bare = await startTestApp({ webRoot: path.join(dir, 'not-built') });
    try {
      const page = await bare.api.get('/', {}, HTML);
      expect(page.status).to.equal(503);
      expect(page.text).to.include('npm run build:web');
      expect((await bare.api.get('/nope', {}, HTML)).body.error.code).to.equal('NOT_FOUND');
    } finally { await bare.close(); }
  });
});
