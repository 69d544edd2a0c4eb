import * as v from 'valibot';
import { AppError, fieldError } from '../../errors.ts';
import { fields, parseInput } from '../../validation.ts';
import {
  API_KEY_PREFIX_LENGTH, API_KEY_SCOPES, apiKeyText, apiKeyView, DEFAULT_API_KEY_SCOPES, type ApiKey,
} from '../../domain/api-key.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Secrets } from '../../ports/secrets.ts';
import type { Storage } from '../../ports/storage.ts';
import { AllowedCidrsField, canonicalAllowedCidrs } from './allowed-cidrs-input.ts';

/** Bytes of randomness in a key's secret part (256 bits). */
const SECRET_BYTES = 32;

/**
 * Spec "API key (create)": name (required), isSandbox (default true), scopes (`resource:action`),
 * expiresAt; and allowedCidrs (client address ranges the key may be used from; default any).
 */
export const CreateApiKeyInput = v.object({
  name: fields.requiredText(100),
  isSandbox: v.optional(v.boolean('must be a boolean'), true),
  scopes: v.optional(v.pipe(
    v.array(v.picklist(API_KEY_SCOPES, (issue) => `unknown scope ${issue.received}; allowed: ${API_KEY_SCOPES.join(', ')}`), 'must be an array of scope strings'),
    v.maxLength(50, 'must list at most 50 scopes'),
  )),
  expiresAt: v.optional(v.pipe(v.string('must be an ISO 8601 date-time string'), v.isoTimestamp('must be an ISO 8601 date-time, e.g. 2026-12-31T23:59:59Z'))),
  allowedCidrs: v.optional(AllowedCidrsField),
});
export type CreateApiKeyInput = v.InferInput<typeof CreateApiKeyInput>;

export interface CreateApiKeyDeps {
  storage: Storage;
  secrets: Secrets;
  ids: IdGenerator;
  clock: Clock;
}

/**
 * POST /api-keys: creates an API key for the caller's organization. The full key text is returned
 * once (`key`); only its SHA-256 hash and a short display prefix are stored. Errors: NAME_REQUIRED
 * (missing or blank name, checked first), VALIDATION_ERROR (unknown scope, expiry not in the future,
 * an allowed address range that is not one or more than 20, wrong types).
 */
export class CreateApiKey {
  readonly #deps: CreateApiKeyDeps;
  constructor(deps: CreateApiKeyDeps) { this.#deps = deps; }

  async execute(scope: { organizationId: string; userId: string }, raw: unknown) {
    if (nameMissing(raw)) throw new AppError('NAME_REQUIRED', 'An API key needs a name');
    const input = parseInput(CreateApiKeyInput, raw);
    const { storage, secrets, ids, clock } = this.#deps;
    const now = clock.now();
    const expiresAt = input.expiresAt === undefined ? null : new Date(input.expiresAt);
    if (expiresAt && Number.isNaN(expiresAt.getTime())) throw fieldError('expiresAt', 'must be a valid date-time');
    if (expiresAt && expiresAt.getTime() <= now.getTime()) throw fieldError('expiresAt', 'must be in the future');
    const allowedCidrs = canonicalAllowedCidrs(input.allowedCidrs ?? []);

    const text = apiKeyText(input.isSandbox, secrets.randomToken(SECRET_BYTES));
    const key: ApiKey = {
      id: ids.next(), organizationId: scope.organizationId, name: input.name, prefix: text.slice(0, API_KEY_PREFIX_LENGTH),
      keyHash: secrets.sha256(text), isSandbox: input.isSandbox, scopes: [...new Set(input.scopes ?? DEFAULT_API_KEY_SCOPES)],
      expiresAt, revokedAt: null, lastUsedAt: null, lastUsedIp: null, allowedCidrs, createdByUserId: scope.userId, createdAt: now,
    };
    await storage.apiKeys.insert(key);
    return { ...apiKeyView(key, now), key: text };
  }
}

/** The spec's NAME_REQUIRED: no name at all, or only blanks (a non-string name is a VALIDATION_ERROR). */
function nameMissing(raw: unknown): boolean {
  if (Array.isArray(raw)) return false; // not an object at all: parseInput answers VALIDATION_ERROR
  const name = typeof raw === 'object' && raw !== null ? (raw as { name?: unknown }).name : undefined;
  return name === undefined || name === null || (typeof name === 'string' && name.trim() === '');
}
