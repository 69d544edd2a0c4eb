import { AppError } from '../../errors.ts';
import { ssoDomainView, verificationRecordName, verificationRecordValue } from '../../domain/sso.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';
import type { TxtResolver } from '../../ports/txt-resolver.ts';

/**
 * POST /organizations/sso/domains/:id/verify: looks up the domain's TXT record and marks the claim
 * verified when it carries the token. A domain is verified by one organization only. Idempotent for an
 * already verified claim. Errors: NOT_FOUND, DOMAIN_TAKEN, DOMAIN_NOT_VERIFIED (record missing or
 * wrong, or DNS did not answer in time: `details.reason`).
 */
export class VerifySsoDomain {
  readonly #deps: { storage: Storage; dns: TxtResolver; clock: Clock };
  constructor(deps: { storage: Storage; dns: TxtResolver; clock: Clock }) { this.#deps = deps; }

  async execute(organizationId: string, id: string) {
    const { storage, dns, clock } = this.#deps;
    const claim = await storage.sso.findDomain(organizationId, id);
    if (!claim) throw new AppError('NOT_FOUND', 'Domain not found');
    if (claim.verifiedAt) return ssoDomainView(claim);
    const holder = await storage.sso.findVerifiedDomain(claim.domain);
    if (holder && holder.organizationId !== organizationId) throw new AppError('DOMAIN_TAKEN', `${claim.domain} is verified by another organization`, { domain: claim.domain });

    const recordName = verificationRecordName(claim.domain);
    const expected = verificationRecordValue(claim.token);
    const records = await dns.resolveTxt(recordName);
    if (records === null || !records.some((r) => r.trim() === expected)) {
      const reason = records === null ? 'the DNS lookup did not answer in time; try again' : records.length === 0 ? 'no TXT record found' : 'the TXT record does not carry this token';
      throw new AppError('DOMAIN_NOT_VERIFIED', `${claim.domain} is not verified: ${reason}`, { recordName, expected, reason });
    }
    const verified = await storage.sso.markVerified(organizationId, id, clock.now());
    if (!verified) throw new AppError('NOT_FOUND', 'Domain not found');
    return ssoDomainView(verified);
  }
}
