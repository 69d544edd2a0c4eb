import { toJsonSchema, type ConversionConfig } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { ERROR_CODES } from '../../core/errors.ts';
import type { RouteDefinition } from './route.ts';

export type JsonObject = { [key: string]: unknown };
type HttpMethod = Lowercase<RouteDefinition['method']>;
type SecurityRequirement = Record<string, string[]>;

export interface OpenApiOperation {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  security: SecurityRequirement[];
  parameters?: JsonObject[];
  requestBody?: JsonObject;
  responses: Record<string, JsonObject>;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: Array<{ url: string; description: string }>;
  tags: Array<{ name: string }>;
  paths: Record<string, Partial<Record<HttpMethod, OpenApiOperation>>>;
  components: {
    securitySchemes: Record<string, JsonObject>;
    parameters: Record<string, JsonObject>;
    schemas: Record<string, JsonObject>;
  };
}

const DESCRIPTION = [
  'Nkra sends SMS, WhatsApp, email, push and voice notifications for many organizations (tenants).',
  'Authenticate with `Authorization: Bearer <JWT>` plus `X-Organization-Id` on organization-scoped operations, or with `X-API-Key` where an operation accepts API keys.',
  'Every JSON response uses an envelope: `{ success: true, data }` or `{ success: false, error: { code, message, details } }`. Money is in GHS.',
].join('\n\n');

/** JSON Schema 2020-12 (the OpenAPI 3.1 dialect) of what clients send; transforms and custom checks are skipped, not fatal. */
const CONVERSION: ConversionConfig = { target: 'draft-2020-12', typeMode: 'input', errorMode: 'ignore' };

const ref = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: JsonObject): JsonObject => ({ 'application/json': { schema } });
const errorResponse = (description: string): JsonObject => ({ description, content: json(ref('ErrorEnvelope')) });

/** Builds the OpenAPI 3.1 document from the route table and the valibot schemas the use cases validate with. */
export function buildOpenApiDocument(routes: readonly RouteDefinition[]): OpenApiDocument {
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: { title: 'Nkra', version: '1.0.0', description: DESCRIPTION },
    servers: [{ url: '/', description: 'This server' }],
    tags: [],
    paths: {},
    components: { securitySchemes: securitySchemes(), parameters: headerParameters(), schemas: envelopeSchemas() },
  };
  const usedIds = new Set<string>();
  for (const route of routes) {
    const path = toOpenApiPath(route.path);
    const pathItem = (document.paths[path] ??= {});
    pathItem[route.method.toLowerCase() as HttpMethod] = operation(route, uniqueId(operationIdOf(route.method, route.path), usedIds), document.components.schemas);
    if (!document.tags.some((tag) => tag.name === route.tag)) document.tags.push({ name: route.tag });
  }
  return document;
}

/** Koa `/messages/:id` -> OpenAPI `/messages/{id}`. */
export function toOpenApiPath(path: string): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
}

/** Stable and derived from the route alone: `DELETE /api-keys/:id` -> `deleteApiKeysById`. */
export function operationIdOf(method: string, path: string): string {
  const words = path.split('/').filter(Boolean)
    .flatMap((segment) => (segment.startsWith(':') ? ['by', segment.slice(1)] : segment.split(/[^A-Za-z0-9]+/)))
    .filter(Boolean);
  return method.toLowerCase() + words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');
}

function uniqueId(id: string, used: Set<string>): string {
  let candidate = id;
  for (let n = 2; used.has(candidate); n++) candidate = `${id}${n}`;
  used.add(candidate);
  return candidate;
}

function operation(route: RouteDefinition, operationId: string, schemas: Record<string, JsonObject>): OpenApiOperation {
  const acceptsApiKey = route.auth === 'tenant-or-api-key' && route.apiKeyScope !== undefined;
  const op: Omit<OpenApiOperation, 'responses'> = { operationId, tags: [route.tag], summary: route.summary, security: securityOf(route, acceptsApiKey) };
  const description = describeAccess(route, acceptsApiKey);
  if (description) op.description = description;

  const parameters = [...pathParameters(route.path), ...(route.query ? queryParameters(route.query, schemas, `${operationId}Query`) : [])];
  if (route.auth === 'tenant') parameters.push({ $ref: '#/components/parameters/OrganizationId' });
  if (route.auth === 'tenant-or-api-key') parameters.push({ $ref: acceptsApiKey ? '#/components/parameters/OrganizationIdWithBearer' : '#/components/parameters/OrganizationId' });
  if (parameters.length > 0) op.parameters = parameters;

  if (route.body) {
    const schema = convert(route.body, schemas, `${operationId}Body`);
    const required = Array.isArray(schema['required']) && schema['required'].length > 0;
    op.requestBody = { required, content: json(schema) };
  }
  if (route.multipart) {
    op.requestBody = {
      required: true,
      content: { 'multipart/form-data': { schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary', description: `At most ${route.multipart.maxBytes} bytes` } } } } },
    };
  }
  const responses: Record<string, JsonObject> = {};
  for (const [status, text] of Object.entries(route.responses)) responses[status] = response(route, Number(status), text);
  responses['default'] = errorResponse('Any other error, e.g. 500 INTERNAL_ERROR or 415 UNSUPPORTED_MEDIA_TYPE');
  return { ...op, responses };
}

function securityOf(route: RouteDefinition, acceptsApiKey: boolean): SecurityRequirement[] {
  if (route.auth === 'none') return [];
  return acceptsApiKey ? [{ apiKeyAuth: [] }, { bearerAuth: [] }] : [{ bearerAuth: [] }];
}

function describeAccess(route: RouteDefinition, acceptsApiKey: boolean): string {
  const lines: string[] = [];
  if (route.auth === 'platform-admin') lines.push('Requires a platform administrator (PLATFORM_SUPER_ADMIN) session, not impersonating.');
  if (route.permission) lines.push(`Requires the member permission \`${route.permission}\`.`);
  if (acceptsApiKey) lines.push(`Accepts an API key with the scope \`${route.apiKeyScope}\`.`);
  return lines.join(' ');
}

/** Route-written (custom) responses have their own shapes; errors still pass through the envelope when they carry a code. */
function response(route: RouteDefinition, status: number, description: string): JsonObject {
  if (status === 204 || status === 304) return { description };
  if (status < 400) return route.custom ? { description } : { description, content: json(ref('SuccessEnvelope')) };
  if (route.custom && !ERROR_CODES.some((code) => description.includes(code))) return { description };
  return errorResponse(description);
}

function pathParameters(path: string): JsonObject[] {
  return [...path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => ({ name: match[1], in: 'path', required: true, schema: { type: 'string' } }));
}

function queryParameters(query: v.GenericSchema, schemas: Record<string, JsonObject>, context: string): JsonObject[] {
  const schema = convert(query, schemas, context);
  const properties = isObject(schema['properties']) ? schema['properties'] : {};
  const required = Array.isArray(schema['required']) ? schema['required'] : [];
  return Object.entries(properties).map(([name, property]) => {
    const parameter: JsonObject = { name, in: 'query', required: required.includes(name), schema: property };
    if (isObject(property) && typeof property['description'] === 'string') parameter['description'] = property['description'];
    return parameter;
  });
}

/**
 * valibot -> JSON Schema, with `$defs` (recursive or global definitions) moved into components so every
 * `$ref` resolves; generated (numbered) definitions are named after their operation.
 */
function convert(schema: v.GenericSchema, schemas: Record<string, JsonObject>, context: string): JsonObject {
  const { $schema: _dialect, $defs, ...converted } = toJsonSchema(schema, CONVERSION) as JsonObject;
  const renamed = new Map<string, string>();
  const defs = isObject($defs) ? Object.entries($defs) : [];
  for (const [name] of defs) {
    const base = /^[A-Za-z_][A-Za-z0-9_.-]*$/.test(name) ? name : `${context}${name.replace(/[^A-Za-z0-9_.-]/g, '')}`;
    let target = base;
    for (let n = 2; target in schemas; n++) target = `${base}_${n}`;
    renamed.set(name, target);
    schemas[target] = {};
  }
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (!isObject(value)) return value;
    const out: JsonObject = {};
    for (const [key, inner] of Object.entries(value)) {
      const local = key === '$ref' && typeof inner === 'string' && inner.startsWith('#/$defs/') ? renamed.get(inner.slice(8)) : undefined;
      out[key] = local ? `#/components/schemas/${local}` : rewrite(inner);
    }
    return out;
  };
  for (const [name, def] of defs) schemas[renamed.get(name) ?? name] = rewrite(def) as JsonObject;
  return rewrite(converted) as JsonObject;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function securitySchemes(): Record<string, JsonObject> {
  return {
    bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A session token from POST /auth/register or /auth/login.' },
    apiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'An organization API key; accepted only where an operation says so.' },
  };
}

function headerParameters(): Record<string, JsonObject> {
  const organizationId = { name: 'X-Organization-Id', in: 'header', schema: { type: 'string' } };
  return {
    OrganizationId: { ...organizationId, required: true, description: 'The organization to act in; the caller must be a member.' },
    OrganizationIdWithBearer: { ...organizationId, required: false, description: 'Required with Bearer authentication; not needed with X-API-Key (the key names its organization).' },
  };
}

function envelopeSchemas(): Record<string, JsonObject> {
  return {
    SuccessEnvelope: {
      type: 'object', required: ['success', 'data'],
      properties: { success: { const: true }, data: { description: 'The operation\'s result.' } },
    },
    ErrorCode: { type: 'string', enum: [...ERROR_CODES], description: 'Stable error codes; see docs/errors.md.' },
    ValidationErrorDetails: {
      type: 'object', required: ['fieldErrors', 'formErrors'],
      properties: {
        fieldErrors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } }, description: 'Messages per top-level field.' },
        formErrors: { type: 'array', items: { type: 'string' }, description: 'Messages not tied to one field.' },
      },
    },
    ErrorEnvelope: {
      type: 'object', required: ['success', 'error'],
      properties: {
        success: { const: false },
        error: {
          type: 'object', required: ['code', 'message', 'details'],
          properties: {
            code: ref('ErrorCode'),
            message: { type: 'string' },
            details: { type: 'object', description: 'Code-specific; for VALIDATION_ERROR `{ fieldErrors, formErrors }`.' },
          },
          if: { properties: { code: { const: 'VALIDATION_ERROR' } } },
          then: { properties: { details: ref('ValidationErrorDetails') } },
        },
      },
    },
  };
}
