import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { ERROR_CODES } from '../../core/errors.ts';
import { toOpenApiPath } from '../../hosts/api/openapi.ts';
import { API } from '../../hosts/api/tokens.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

type Json = { [key: string]: any };

describe('HTTP: GET /openapi.json and the /docs page', () => {
  let app: TestApp;
  let document: Json;
  before(async () => {
    app = await startTestApp();
    const res = await app.api.get('/openapi.json');
    expect(res.status).to.equal(200);
    document = res.body;
  });
  after(async () => { await app.close(); });

  it('serves an OpenAPI 3.1.0 document as plain JSON, not wrapped in the envelope', async () => {
    const res = await app.api.get('/openapi.json');
    expect(res.headers.get('content-type')).to.match(/^application\/json/);
    expect(res.body).to.not.have.property('success');
    expect(document['openapi']).to.equal('3.1.0');
    expect(document['info']).to.include({ title: 'Nkra', version: '1.0.0' });
    expect(document['components'].securitySchemes).to.have.keys('bearerAuth', 'apiKeyAuth');
  });

  it('lists every route of the running app with its method and path (routes added later included)', () => {
    const routes = app.container.getAll(API.routes).flat();
    expect(routes.length).to.be.greaterThan(5);
    const missing = routes.filter((route) => !document['paths'][toOpenApiPath(route.path)]?.[route.method.toLowerCase()]);
    expect(missing.map((route) => `${route.method} ${route.path}`)).to.deep.equal([]);
    const operationIds = Object.values(document['paths']).flatMap((item: any) => Object.values(item).map((op: any) => op.operationId));
    expect(new Set(operationIds).size).to.equal(operationIds.length);
    expect(document['paths']).to.have.property('/openapi.json');
    expect(document['paths']).to.have.property('/docs');
  });

  it('documents POST /auth/register with a body requiring email, password, firstName and lastName', () => {
    const operation = document['paths']['/auth/register'].post;
    expect(operation.security).to.deep.equal([]);
    const schema = operation.requestBody.content['application/json'].schema;
    expect(schema.required).to.have.members(['email', 'password', 'firstName', 'lastName']);
    expect(schema.properties.email).to.include({ type: 'string', format: 'email' });
    expect(schema.properties.password).to.include({ minLength: 8 });
    expect(operation.responses['409'].content['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/ErrorEnvelope' });
  });

  it('documents tenant routes with Bearer auth and a required X-Organization-Id header', () => {
    const operation = document['paths']['/organizations/current'].get;
    expect(operation.security).to.deep.equal([{ bearerAuth: [] }]);
    const headers = operation.parameters.map((p: Json) => resolve(document, p)).filter((p: Json) => p['in'] === 'header');
    expect(headers).to.deep.equal([{ name: 'X-Organization-Id', in: 'header', schema: { type: 'string' }, required: true, description: 'The organization to act in; the caller must be a member.' }]);
  });

  it('defines the error envelope with every ErrorCode and the VALIDATION_ERROR details shape', () => {
    const error = document['components'].schemas.ErrorEnvelope.properties.error;
    expect(resolve(document, error.properties.code).enum).to.deep.equal([...ERROR_CODES]);
    expect(resolve(document, error.then.properties.details).properties).to.have.keys('fieldErrors', 'formErrors');
  });

  it('resolves every $ref within the document', () => {
    const refs = allRefs(document);
    expect(refs.length).to.be.greaterThan(0);
    for (const target of refs) expect(() => resolve(document, { $ref: target }), target).to.not.throw();
  });

  it('serves the docs page as HTML loading the local Swagger UI assets and pointing at /openapi.json', async () => {
    const res = await app.api.get('/docs');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/html/);
    for (const file of ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js']) expect(res.text).to.include(`/docs/assets/${file}`);
    expect(res.text).to.include("url: '/openapi.json'");
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).to.include("default-src 'none'").and.include("script-src 'self' 'sha256-").and.not.include('unsafe-eval');
    const inline = /<script>([\s\S]*?)<\/script>/.exec(res.text)?.[1] ?? '';
    expect(csp, 'the CSP hash allows the inline initializer').to.include(`'sha256-${createHash('sha256').update(inline).digest('base64')}'`);
  });

  it('serves each allowed asset with its content type and a cache lifetime', async () => {
    const expected: Record<string, RegExp> = { 'swagger-ui.css': /^text\/css/, 'swagger-ui-bundle.js': /^text\/javascript/, 'swagger-ui-standalone-preset.js': /^text\/javascript/ };
    for (const [file, type] of Object.entries(expected)) {
      const res = await fetch(`${app.url}/docs/assets/${file}`);
      expect(res.status, file).to.equal(200);
      expect(res.headers.get('content-type'), file).to.match(type);
      expect(res.headers.get('cache-control'), file).to.include('max-age=');
      expect((await res.arrayBuffer()).byteLength, file).to.be.greaterThan(10_000);
    }
  });

  it('answers 404 NOT_FOUND in the error envelope for any file not on the allow-list, traversal attempts included', async () => {
    for (const path of ['/docs/assets/index.html', '/docs/assets/swagger-ui.css.map', '/docs/assets/..%2Fpackage.json', '/docs/assets/..%2F..%2F..%2Fpackage.json', '/docs/assets/__proto__']) {
      const res = await app.api.get(path);
      expect(res.status, path).to.equal(404);
      expect(res.body.success, path).to.equal(false);
      expect(res.body.error.code, path).to.equal('NOT_FOUND');
      expect(res.text, path).to.not.include('"name"');
    }
  });
});

function resolve(document: Json, node: Json): Json {
  const target = node['$ref'];
  if (typeof target !== 'string') return node;
  if (!target.startsWith('#/')) throw new Error(`non-local $ref ${target}`);
  let current: any = document;
  for (const part of target.slice(2).split('/')) {
    current = current?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    if (current === undefined) throw new Error(`unresolved $ref ${target}`);
  }
  return current;
}

function allRefs(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(allRefs);
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([key, value]) => (key === '$ref' && typeof value === 'string' ? [value] : allRefs(value)));
}
