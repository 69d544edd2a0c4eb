import { expect } from 'chai';
import type { SsoConnection, SsoDomain } from '../../core/domain/sso.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { at, rejection, seedOrganization, uniqueId } from './contract-fixtures.ts';

/** The SsoRepository contract (core/ports/sso-repository.ts), run against every Storage. */
export function describeSsoRepositoryContract(name: string, makeStorage: () => Promise<Storage>): void {
  describe(`SsoRepository contract: ${name}`, () => {
    let storage: Storage;
    before(async () => { storage = await makeStorage(); });

    const aConnection = (organizationId: string, overrides: Partial<SsoConnection> = {}): SsoConnection => ({
      organizationId, issuerUrl: 'https://idp.example.com', clientId: 'nkra', clientSecretCiphertext: 'sealed', slug: null,
      scopes: ['openid', 'email', 'profile'], defaultRole: 'VIEWER', ssoOnly: false, createdAt: at(0), updatedAt: at(0), ...overrides,
    });
    const aDomain = (organizationId: string, domain: string, overrides: Partial<SsoDomain> = {}): SsoDomain => ({
      id: uniqueId('dom'), organizationId, domain, token: uniqueId('token'), verifiedAt: null, createdAt: at(0), ...overrides,
    });
    const uniqueDomain = () => `${uniqueId('d').toLowerCase()}.example`;

    it('saves one connection per organization, replaces it, and never shows it to another organization', async () => {
      const org = await seedOrganization(storage);
      const other = await seedOrganization(storage);
      await storage.sso.saveConnection(aConnection(org.id));
      await storage.sso.saveConnection(aConnection(org.id, { clientId: 'changed', ssoOnly: true, defaultRole: 'DEVELOPER', updatedAt: at(60) }));
      expect(await storage.sso.findConnection(org.id)).to.deep.equal(aConnection(org.id, { clientId: 'changed', ssoOnly: true, defaultRole: 'DEVELOPER', updatedAt: at(60) }));
      expect(await storage.sso.findConnection(other.id)).to.equal(null);
    });

    it('finds a connection by its slug and refuses another organization\'s slug with SLUG_EXISTS', async () => {
      const [a, b] = [await seedOrganization(storage), await seedOrganization(storage)];
      const slug = uniqueId('s').toLowerCase().slice(0, 30);
      await storage.sso.saveConnection(aConnection(a.id, { slug }));
      expect((await storage.sso.findConnectionBySlug(slug))?.organizationId).to.equal(a.id);
      expect((await rejection(storage.sso.saveConnection(aConnection(b.id, { slug })))).code).to.equal('SLUG_EXISTS');
      await storage.sso.saveConnection(aConnection(a.id, { slug })); // its own slug again is fine
    });

    it('lists an organization\'s domains oldest first within the limit, and refuses the same claim twice with DOMAIN_TAKEN', async () => {
      const org = await seedOrganization(storage);
      const other = await seedOrganization(storage);
      const first = aDomain(org.id, uniqueDomain(), { createdAt: at(0) });
      const second = aDomain(org.id, uniqueDomain(), { createdAt: at(10) });
      await storage.sso.addDomain(second);
      await storage.sso.addDomain(first);
      await storage.sso.addDomain(aDomain(other.id, first.domain)); // another organization may claim it too
      expect(await storage.sso.listDomains(org.id, 10)).to.deep.equal([first, second]);
      expect(await storage.sso.listDomains(org.id, 1)).to.deep.equal([first]);
      expect(await storage.sso.findDomain(other.id, first.id)).to.equal(null);
      expect((await rejection(storage.sso.addDomain(aDomain(org.id, first.domain)))).code).to.equal('DOMAIN_TAKEN');
    });

    it('verifies a domain for one organization only: the second verification fails with DOMAIN_TAKEN', async () => {
      const [a, b] = [await seedOrganization(storage), await seedOrganization(storage)];
      const domain = uniqueDomain();
      const claimA = aDomain(a.id, domain);
      const claimB = aDomain(b.id, domain);
      await storage.sso.addDomain(claimA);
      await storage.sso.addDomain(claimB);
      expect(await storage.sso.findVerifiedDomain(domain)).to.equal(null);
      expect((await storage.sso.markVerified(a.id, claimA.id, at(5)))?.verifiedAt).to.deep.equal(at(5));
      expect((await storage.sso.markVerified(a.id, claimA.id, at(9)))?.verifiedAt).to.deep.equal(at(5)); // idempotent
      expect((await rejection(storage.sso.markVerified(b.id, claimB.id, at(6)))).code).to.equal('DOMAIN_TAKEN');
      expect(await storage.sso.markVerified(b.id, claimA.id, at(6))).to.equal(null); // another tenant's claim
      expect(await storage.sso.findVerifiedDomain(domain)).to.deep.equal({ ...claimA, verifiedAt: at(5) });
    });

    it('removes only the organization\'s own claim, which frees the domain', async () => {
      const [a, b] = [await seedOrganization(storage), await seedOrganization(storage)];
      const claim = aDomain(a.id, uniqueDomain(), { verifiedAt: at(1) });
      await storage.sso.addDomain(claim);
      expect(await storage.sso.removeDomain(b.id, claim.id)).to.equal(false);
      expect(await storage.sso.removeDomain(a.id, claim.id)).to.equal(true);
      expect(await storage.sso.removeDomain(a.id, claim.id)).to.equal(false);
      expect(await storage.sso.findVerifiedDomain(claim.domain)).to.equal(null);
    });
  });
}
