import * as v from 'valibot';
import { AppError, fieldError } from '../../errors.ts';
import { fields, parseInput } from '../../validation.ts';
import { JIT_ROLES, ssoConnectionView, type SsoConnection } from '../../domain/sso.ts';
import type { Clock } from '../../ports/clock.ts';
import type { CredentialCipher } from '../../ports/credential-cipher.ts';
import type { EgressPolicy } from '../../ports/egress-policy.ts';
import type { Storage } from '../../ports/storage.ts';

const scope = v.pipe(v.string('must be a string'), v.regex(/^[\x21\x23-\x5B\x5D-\x7E]{1,64}$/, 'must be scope names without spaces'));

export const ConfigureSsoInput = v.object({
  issuerUrl: v.pipe(v.string('must be a string'), v.trim(), v.maxLength(500, 'must be at most 500 characters'), v.url('must be a URL')),
  clientId: fields.requiredText(255),
  /** Required on the first save; omit to keep the stored secret. Never returned. */
  clientSecret: v.optional(v.pipe(v.string('must be a string'), v.minLength(1, 'is required'), v.maxLength(1000, 'must be at most 1000 characters'))),
  slug: v.optional(v.nullable(v.pipe(v.string('must be a string'), v.trim(), v.toLowerCase(), v.regex(/^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/, 'must be 1-40 lowercase letters, digits or dashes')))),
  scopes: v.optional(v.pipe(v.array(scope, 'must be a list of scope names'), v.maxLength(20, 'must have at most 20 scopes'))),
  defaultRole: v.optional(v.picklist(JIT_ROLES, `must be one of ${JIT_ROLES.join(', ')}`), 'VIEWER'),
  ssoOnly: v.optional(v.boolean('must be true or false'), false),
});

export interface ConfigureSsoDeps { storage: Storage; cipher: CredentialCipher; egress: EgressPolicy; clock: Clock }

/**
 * PUT /organizations/sso: saves the organization's OpenID Connect connection (owners and admins). The
 * client secret is sealed before it is stored and never returned; `openid` and `email` are always among
 * the scopes. The issuer URL must pass the egress policy (no private addresses). Errors: VALIDATION_ERROR,
 * SLUG_EXISTS.
 */
export class ConfigureSso {
  readonly #deps: ConfigureSsoDeps;
  constructor(deps: ConfigureSsoDeps) { this.#deps = deps; }

  async execute(organizationId: string, raw: unknown) {
    const input = parseInput(ConfigureSsoInput, raw);
    const { storage, cipher, egress, clock } = this.#deps;
    const refused = await egress.checkUrl(input.issuerUrl);
    if (refused) throw fieldError('issuerUrl', `issuerUrl may not be used: ${refused}`);
    const existing = await storage.sso.findConnection(organizationId);
    if (!existing && input.clientSecret === undefined) throw fieldError('clientSecret', 'clientSecret is required on the first save');
    const now = clock.now();
    const connection: SsoConnection = {
      organizationId, issuerUrl: input.issuerUrl.replace(/\/+$/, ''), clientId: input.clientId,
      clientSecretCiphertext: input.clientSecret === undefined ? existing!.clientSecretCiphertext : cipher.encrypt(input.clientSecret),
      slug: input.slug === undefined ? (existing?.slug ?? null) : input.slug,
      scopes: [...new Set(['openid', 'email', ...(input.scopes ?? existing?.scopes ?? ['profile'])])],
      defaultRole: input.defaultRole, ssoOnly: input.ssoOnly, createdAt: existing?.createdAt ?? now, updatedAt: now,
    };
    try {
      await storage.sso.saveConnection(connection);
    } catch (error) {
      if (error instanceof AppError && error.code === 'SLUG_EXISTS') throw new AppError('SLUG_EXISTS', 'Another organization signs in with this slug', { fieldErrors: { slug: ['is taken'] }, formErrors: [] });
      throw error;
    }
    return ssoConnectionView(connection);
  }
}
