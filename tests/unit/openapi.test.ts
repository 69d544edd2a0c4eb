import { expect } from 'chai';
import * as v from 'valibot';
import { ERROR_CODES } from '../../core/errors.ts';
import { buildOpenApiDocument, operationIdOf, type JsonObject, type OpenApiDocument } from '../../hosts/api/openapi.ts';
import { ok, type RouteDefinition } from '../../hosts/api/route.ts';

const handler = async () => ok({});
const Widget = v.object({
  name: v.pipe(v.string(), v.trim(), v.minLength(1)),
  size: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 1),
  tag: v.optional(v.pipe(v.string(), v.transform((s) => s.toUpperCase()))),
});
const Page = v.object({
  limit: v.optional(v.pipe(v.string(), v.transform(Number), v.number(), v.maxValue(100))),
  search: v.pipe(v.string(), v.description('Text to look for')),
});
interface TreeNode { label: string; children: TreeNode[] }
const Tree: v.GenericSchema<TreeNode> = v.object({ label: v.string(), children: v.array(v.lazy(() => Tree)) });

const ROUTES: RouteDefinition[] = [
  { method: 'POST', path: '/auth/login', tag: 'Auth', summary: 'Log in', auth: 'none', body: Widget, responses: { 200: 'Token', 400: 'VALIDATION_ERROR' }, handler },
  { method: 'GET', path: '/me', tag: 'Auth', summary: 'Me', auth: 'user', responses: { 200: 'Profile' }, handler },
  { method: 'POST', path: '/admin/tenants/:id/impersonate', tag: 'Admin', summary: 'Impersonate', auth: 'platform-admin', responses: { 200: 'Token' }, handler },
  { method: 'DELETE', path: '/widgets/:widgetId/parts/:partId', tag: 'Widgets', summary: 'Remove a part', auth: 'tenant', permission: 'organization:write', responses: { 200: 'Removed', 404: 'NOT_FOUND' }, handler },
  { method: 'GET', path: '/messages/:id', tag: 'Messages', summary: 'A message', auth: 'tenant-or-api-key', permission: 'messages:read', apiKeyScope: 'messages:read', query: Page, responses: { 200: 'Delivery log' }, handler },
  { method: 'POST', path: '/trees', tag: 'Widgets', summary: 'Plant a tree', auth: 'tenant', permission: 'organization:write', body: Tree, responses: { 201: 'Planted' }, handler },
  { method: 'GET', path: '/health', tag: 'System', summary: 'Health', auth: 'none', custom: true, responses: { 200: 'Healthy', 503: 'Degraded (same body)', 401: 'UNAUTHORIZED' }, handler },
];

describe('OpenAPI document generator', () => {
  const document = buildOpenApiDocument(ROUTES);
  const op = (path: string, method: string): JsonObject => {
    const found = (document.paths[path] as Record<string, JsonObject> | undefined)?.[method];
    if (!found) throw new Error(`no ${method} ${path} in the document`);
    return found;
  };
  const resolve = (node: unknown): JsonObject => resolveRef(document, node);

  it('describes an OpenAPI 3.1.0 document titled Nkra, version 1.0.0, served relative to /', () => {
    expect(document.openapi).to.equal('3.1.0');
    expect(document.info).to.include({ title: 'Nkra', version: '1.0.0' });
    expect(document.servers).to.deep.equal([{ url: '/', description: 'This server' }]);
    expect(document.tags.map((tag) => tag.name)).to.deep.equal(['Auth', 'Admin', 'Widgets', 'Messages', 'System']);
  });

  it('turns Koa path parameters into OpenAPI templates with required path parameters', () => {
    expect(Object.keys(document.paths)).to.include.members(['/admin/tenants/{id}/impersonate', '/widgets/{widgetId}/parts/{partId}']);
    const params = op('/widgets/{widgetId}/parts/{partId}', 'delete')['parameters'] as JsonObject[];
    expect(params.filter((p) => p['in'] === 'path')).to.deep.equal([
      { name: 'widgetId', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'partId', in: 'path', required: true, schema: { type: 'string' } },
    ]);
  });

  it('derives a stable operationId from method and path', () => {
    expect(op('/widgets/{widgetId}/parts/{partId}', 'delete')['operationId']).to.equal('deleteWidgetsByWidgetIdPartsByPartId');
    expect(op('/auth/login', 'post')['operationId']).to.equal('postAuthLogin');
    expect(operationIdOf('GET', '/api-keys/:id')).to.equal('getApiKeysById');
    expect(buildOpenApiDocument(ROUTES)).to.deep.equal(document);
  });

  it('states the security of each auth kind', () => {
    expect(op('/auth/login', 'post')['security']).to.deep.equal([]);
    expect(op('/me', 'get')['security']).to.deep.equal([{ bearerAuth: [] }]);
    expect(op('/admin/tenants/{id}/impersonate', 'post')['security']).to.deep.equal([{ bearerAuth: [] }]);
    expect(op('/widgets/{widgetId}/parts/{partId}', 'delete')['security']).to.deep.equal([{ bearerAuth: [] }]);
    expect(op('/messages/{id}', 'get')['security']).to.deep.equal([{ apiKeyAuth: [] }, { bearerAuth: [] }]);
    expect(document.components.securitySchemes).to.deep.include({
      bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A session token from POST /auth/register or /auth/login.' },
    });
    expect(document.components.securitySchemes['apiKeyAuth']).to.include({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
  });

  it('requires X-Organization-Id on tenant routes, and only with Bearer on API-key routes', () => {
    const header = (path: string, method: string) => ((op(path, method)['parameters'] ?? []) as JsonObject[]).map(resolve).find((p) => p['in'] === 'header');
    expect(header('/widgets/{widgetId}/parts/{partId}', 'delete')).to.include({ name: 'X-Organization-Id', required: true });
    expect(header('/messages/{id}', 'get')).to.include({ name: 'X-Organization-Id', required: false });
    expect(header('/me', 'get')).to.equal(undefined);
    expect(header('/auth/login', 'post')).to.equal(undefined);
  });

  it('documents the request body with the schema the use case validates with, required fields included', () => {
    const body = op('/auth/login', 'post')['requestBody'] as JsonObject;
    expect(body['required']).to.equal(true);
    const schema = (body['content'] as Record<string, { schema: JsonObject }>)['application/json']?.schema;
    expect(schema).to.deep.include({ type: 'object', required: ['name'] });
    expect(schema?.['properties']).to.deep.equal({
      name: { type: 'string', minLength: 1 },
      size: { type: 'integer', minimum: 1, default: 1 },
      tag: { type: 'string' },
    });
    expect(schema).to.not.have.property('$schema');
  });

  it('turns an object query schema into one query parameter per key', () => {
    const query = (op('/messages/{id}', 'get')['parameters'] as JsonObject[]).filter((p) => p['in'] === 'query');
    expect(query).to.deep.equal([
      { name: 'limit', in: 'query', required: false, schema: { type: 'string' } },
      { name: 'search', in: 'query', required: true, schema: { type: 'string', description: 'Text to look for' }, description: 'Text to look for' },
    ]);
  });

  it('moves recursive definitions into components so their references resolve', () => {
    const schema = resolve(((op('/trees', 'post')['requestBody'] as JsonObject)['content'] as Record<string, { schema: JsonObject }>)['application/json']?.schema);
    expect(schema).to.not.have.property('$defs');
    expect(JSON.stringify(document)).to.not.include('#/$defs/');
    expect(Object.keys(document.components.schemas).filter((name) => !/^[A-Za-z][A-Za-z0-9_.-]*$/.test(name))).to.deep.equal([]);
    expect(allRefs(document).every((target) => resolveRef(document, { $ref: target }))).to.equal(true);
  });

  it('wraps success in the success envelope and errors in the error envelope with every ErrorCode', () => {
    const responses = op('/auth/login', 'post')['responses'] as Record<string, JsonObject>;
    expect(responses['200']).to.deep.equal({ description: 'Token', content: { 'application/json': { schema: { $ref: '#/components/schemas/SuccessEnvelope' } } } });
    expect(responses['400']).to.deep.equal({ description: 'VALIDATION_ERROR', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } } });
    expect(responses).to.have.property('default');
    const envelope = document.components.schemas['ErrorEnvelope'] as any;
    expect(envelope.required).to.deep.equal(['success', 'error']);
    expect(envelope.properties.success).to.deep.equal({ const: false });
    expect(envelope.properties.error.required).to.deep.equal(['code', 'message', 'details']);
    expect(resolve(envelope.properties.error.properties.code)['enum']).to.deep.equal([...ERROR_CODES]);
    expect(resolve(envelope.properties.error.then.properties.details)).to.deep.include({ required: ['fieldErrors', 'formErrors'] });
    expect(document.components.schemas['SuccessEnvelope']).to.deep.include({ required: ['success', 'data'], properties: { success: { const: true }, data: { description: 'The operation\'s result.' } } });
  });

  it('leaves route-written success bodies unwrapped and documents only coded errors of such routes in the envelope', () => {
    const responses = op('/health', 'get')['responses'] as Record<string, JsonObject>;
    expect(responses['200']).to.deep.equal({ description: 'Healthy' });
    expect(responses['503']).to.deep.equal({ description: 'Degraded (same body)' });
    expect(responses['401']).to.have.property('content');
  });

  it('contains no undefined values', () => {
    expect(findUndefined(document)).to.deep.equal([]);
  });
});

/** Resolves a local `$ref` (or returns the node itself); throws if it points nowhere. */
function resolveRef(document: OpenApiDocument, node: unknown): JsonObject {
  const target = (node as JsonObject | undefined)?.['$ref'];
  if (typeof target !== 'string') return node as JsonObject;
  if (!target.startsWith('#/')) throw new Error(`non-local $ref ${target}`);
  let current: unknown = document;
  for (const part of target.slice(2).split('/')) {
    current = (current as JsonObject | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    if (current === undefined) throw new Error(`unresolved $ref ${target}`);
  }
  return current as JsonObject;
}

function allRefs(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(allRefs);
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([key, value]) => (key === '$ref' && typeof value === 'string' ? [value] : allRefs(value)));
}

function findUndefined(node: unknown, at = '#'): string[] {
  if (node === undefined) return [at];
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([key, value]) => findUndefined(value, `${at}/${key}`));
}
