import { CreateApiKeyInput, type CreateApiKey } from '../../../core/use-cases/api-keys/create-api-key.ts';
import type { ListApiKeys } from '../../../core/use-cases/api-keys/list-api-keys.ts';
import type { RevokeApiKey } from '../../../core/use-cases/api-keys/revoke-api-key.ts';
import { UpdateApiKeyInput, type UpdateApiKey } from '../../../core/use-cases/api-keys/update-api-key.ts';
import { ok, requireMember, requireTenant, type RouteDefinition } from '../route.ts';

export interface ApiKeyRouteDeps {
  createApiKey: CreateApiKey;
  listApiKeys: ListApiKeys;
  revokeApiKey: RevokeApiKey;
  updateApiKey: UpdateApiKey;
}

const DENIED = {
  400: 'ORGANIZATION_REQUIRED', 401: 'UNAUTHORIZED (also for an API key: keys cannot manage keys)',
  403: 'FORBIDDEN (not a member, or the role lacks the permission)',
};

export function apiKeyRoutes(deps: ApiKeyRouteDeps): RouteDefinition[] {
  return [
    {
      method: 'GET', path: '/api-keys', tag: 'API keys', summary: 'The organization\'s API keys (prefixes only, never full keys)',
      auth: 'tenant', permission: 'api-keys:read',
      responses: { 200: 'API keys (at most 100), newest first', ...DENIED },
      handler: async (input) => ok(await deps.listApiKeys.execute(requireMember(input))),
    },
    {
      method: 'POST', path: '/api-keys', tag: 'API keys', summary: 'Create an API key; the full key is returned once',
      auth: 'tenant', permission: 'api-keys:write', body: CreateApiKeyInput,
      responses: {
        201: 'The key view plus `key`, the full key text (shown only this once)', ...DENIED,
        400: 'NAME_REQUIRED, VALIDATION_ERROR (unknown scope, expiresAt not in the future, allowedCidrs not address ranges or more than 20) or ORGANIZATION_REQUIRED',
      },
      handler: async (input) => ok(await deps.createApiKey.execute(requireMember(input), input.body), 201),
    },
    {
      method: 'PATCH', path: '/api-keys/:id', tag: 'API keys', summary: 'Set the client address ranges the key may be used from (`allowedCidrs`; [] for any)',
      auth: 'tenant', permission: 'api-keys:write', body: UpdateApiKeyInput,
      responses: {
        200: 'The key view (with `allowedCidrs` in canonical form)', ...DENIED,
        400: 'VALIDATION_ERROR (not an IPv4/IPv6 range, more than 20, another field) or ORGANIZATION_REQUIRED', 404: 'NOT_FOUND',
      },
      handler: async (input) => ok(await deps.updateApiKey.execute(requireMember(input), input.params['id'] ?? '', input.body)),
    },
    {
      method: 'DELETE', path: '/api-keys/:id', tag: 'API keys', summary: 'Revoke an API key (idempotent; immediate in this process)',
      auth: 'tenant', permission: 'api-keys:write',
      responses: { 200: 'The revoked key view', ...DENIED, 404: 'NOT_FOUND (unknown id, or a key of another organization)' },
      handler: async (input) => ok(await deps.revokeApiKey.execute(requireMember(input), input.params['id'] ?? '')),
    },
  ];
}

