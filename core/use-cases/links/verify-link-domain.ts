import { AppError } from '../../errors.ts';
import { linkDomainRecordName, linkDomainRecordValue, linkSettingsView } from '../../domain/link-settings.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';
import type { TxtResolver } from '../../ports/txt-resolver.ts';

/**
 * POST /links/settings/domain/verify: looks up `_nkra-links.<domain>` and marks the custom link domain
 * verified when a TXT record there is `nkra-links-verification=<token>`; new links then use it. The
 * domain must point (CNAME or A) at the redirect service, which the operator's TLS setup serves
 * (docs/links.md). Errors: NOT_FOUND (no custom domain set), DOMAIN_NOT_VERIFIED (record missing or
 * the lookup did not answer in time), DOMAIN_TAKEN (another organization verified it meanwhile).
 */
export class VerifyLinkDomain {
  readonly #deps: { storage: Storage; clock: Clock; dns: TxtResolver; platformBase: string; onChange?: (organizationId: string) => void };
  constructor(deps: { storage: Storage; clock: Clock; dns: TxtResolver; platformBase: string; onChange?: (organizationId: string) => void }) { this.#deps = deps; }

  async execute(organizationId: string) {
    const { storage, clock, dns, platformBase } = this.#deps;
    const settings = await storage.linkSettings.find(organizationId);
    if (!settings?.customDomain || !settings.domainToken) throw new AppError('NOT_FOUND', 'No custom link domain is set (PATCH /links/settings with customDomain)');
    if (settings.domainVerifiedAt) return linkSettingsView(settings, platformBase);
    const recordName = linkDomainRecordName(settings.customDomain);
    const expected = linkDomainRecordValue(settings.domainToken);
    const records = await dns.resolveTxt(recordName);
    if (records === null || !records.some((r) => r.trim() === expected)) {
      const reason = records === null ? 'the DNS lookup did not answer in time; try again' : records.length === 0 ? 'no TXT record found' : 'the TXT record does not carry this token';
      throw new AppError('DOMAIN_NOT_VERIFIED', `${settings.customDomain} is not verified: ${reason}`, { recordName, expected, reason });
    }
    const verified = { ...settings, domainVerifiedAt: clock.now(), updatedAt: clock.now() };
    try {
      await storage.linkSettings.save(verified);
    } catch (error) {
      if (error instanceof AppError && error.code === 'CONFLICT') throw new AppError('DOMAIN_TAKEN', `${settings.customDomain} is verified by another organization`, { domain: settings.customDomain });
      throw error;
    }
    this.#deps.onChange?.(organizationId);
    return linkSettingsView(verified, platformBase);
  }
}
