import * as v from 'valibot';
import { AppError, fieldError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import { defaultLinkSettings, linkSettingsView, MAX_UNTRACKED_TEMPLATES } from '../../domain/link-settings.ts';
import { normalizeDomain } from '../../domain/sso.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Secrets } from '../../ports/secrets.ts';
import type { Storage } from '../../ports/storage.ts';

export const UpdateLinkSettingsInput = v.strictObject({
  trackLinks: v.optional(v.boolean('must be true or false')),
  trackEmailOpens: v.optional(v.boolean('must be true or false')),
  untrackedTemplateIds: v.optional(v.pipe(v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(100))),
    v.maxLength(MAX_UNTRACKED_TEMPLATES, `at most ${MAX_UNTRACKED_TEMPLATES} templates`))),
  /** A host name such as go.acme.com.gh; null removes it. */
  customDomain: v.optional(v.nullable(v.pipe(v.string('must be a string'), v.maxLength(253, 'must be at most 253 characters')))),
}, 'unknown field');

/**
 * PATCH /links/settings: changes the fields given (docs/links.md). A new custom domain starts
 * unverified with a new TXT token (links keep the platform's domain until POST /links/settings/domain/verify
 * finds the record); the same domain again keeps its state. Templates named must be the organization's.
 * Errors: VALIDATION_ERROR, DOMAIN_TAKEN (another organization verified the domain).
 */
export class UpdateLinkSettings {
  readonly #deps: { storage: Storage; clock: Clock; secrets: Secrets; platformBase: string; onChange?: (organizationId: string) => void };
  constructor(deps: { storage: Storage; clock: Clock; secrets: Secrets; platformBase: string; onChange?: (organizationId: string) => void }) { this.#deps = deps; }

  async execute(organizationId: string, raw: unknown) {
    const input = parseInput(UpdateLinkSettingsInput, raw);
    const { storage, clock, secrets, platformBase } = this.#deps;
    const now = clock.now();
    const current = await storage.linkSettings.find(organizationId) ?? defaultLinkSettings(organizationId, now);
    const next = { ...current, updatedAt: now };
    if (input.trackLinks !== undefined) next.trackLinks = input.trackLinks;
    if (input.trackEmailOpens !== undefined) next.trackEmailOpens = input.trackEmailOpens;
    if (input.untrackedTemplateIds !== undefined) {
      const ids = [...new Set(input.untrackedTemplateIds)];
      const found = await Promise.all(ids.map((id) => storage.templates.findById(organizationId, id)));
      const missing = ids.filter((_, i) => !found[i]);
      if (missing.length > 0) throw fieldError('untrackedTemplateIds', `unknown template${missing.length > 1 ? 's' : ''}: ${missing.slice(0, 5).join(', ')}`);
      next.untrackedTemplateIds = ids;
    }
    if (input.customDomain !== undefined) {
      const domain = input.customDomain === null ? null : normalizeDomain(input.customDomain);
      if (input.customDomain !== null && !domain) throw fieldError('customDomain', 'customDomain must be a host name such as go.example.com');
      if (domain !== current.customDomain) {
        if (domain) {
          const holder = await storage.linkSettings.findByVerifiedDomain(domain);
          if (holder && holder.organizationId !== organizationId) throw new AppError('DOMAIN_TAKEN', `${domain} is verified by another organization`, { domain });
        }
        next.customDomain = domain;
        next.domainToken = domain ? secrets.randomToken(24) : null;
        next.domainVerifiedAt = null;
      }
    }
    await storage.linkSettings.save(next);
    this.#deps.onChange?.(organizationId);
    return linkSettingsView(next, platformBase);
  }
}
