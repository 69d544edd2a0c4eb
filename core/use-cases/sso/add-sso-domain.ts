import * as v from 'valibot';
import { AppError, fieldError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import { MAX_SSO_DOMAINS, normalizeDomain, ssoDomainView, type SsoDomain } from '../../domain/sso.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Secrets } from '../../ports/secrets.ts';
import type { Storage } from '../../ports/storage.ts';

export const AddSsoDomainInput = v.object({
  domain: v.pipe(v.string('must be a string'), v.minLength(1, 'is required'), v.maxLength(253, 'must be at most 253 characters')),
});

/**
 * POST /organizations/sso/domains: claims an email domain and answers the DNS TXT record that proves it
 * (`_nkra-verification.<domain>` = `nkra-verification=<token>`). Unverified until the verify call finds
 * the record. Errors: VALIDATION_ERROR, DOMAIN_TAKEN (this organization claims it already, or another
 * organization verified it), LIMIT_REACHED (MAX_SSO_DOMAINS).
 */
export class AddSsoDomain {
  readonly #deps: { storage: Storage; secrets: Secrets; ids: IdGenerator; clock: Clock };
  constructor(deps: { storage: Storage; secrets: Secrets; ids: IdGenerator; clock: Clock }) { this.#deps = deps; }

  async execute(organizationId: string, raw: unknown) {
    const input = parseInput(AddSsoDomainInput, raw);
    const domain = normalizeDomain(input.domain);
    if (!domain) throw fieldError('domain', 'domain must be a domain name such as example.com');
    const { storage, secrets, ids, clock } = this.#deps;
    const holder = await storage.sso.findVerifiedDomain(domain);
    if (holder && holder.organizationId !== organizationId) throw new AppError('DOMAIN_TAKEN', `${domain} is verified by another organization`, { domain });
    if ((await storage.sso.listDomains(organizationId, MAX_SSO_DOMAINS)).length >= MAX_SSO_DOMAINS) {
      throw new AppError('LIMIT_REACHED', `At most ${MAX_SSO_DOMAINS} domains per organization`, { limit: MAX_SSO_DOMAINS });
    }
    const claim: SsoDomain = { id: ids.next(), organizationId, domain, token: secrets.randomToken(24), verifiedAt: null, createdAt: clock.now() };
    await storage.sso.addDomain(claim);
    return ssoDomainView(claim);
  }
}
