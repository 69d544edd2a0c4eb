import { expect } from 'chai';
import type { ApiKey } from '../../core/domain/api-key.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { anApiKey, at, rejection, seedOrganization, seedUser, uniqueId } from './contract-fixtures.ts';

/** The ApiKeyRepository contract (core/ports/api-key-repository.ts), run against every Storage. */
export function describeApiKeyRepositoryContract(name: string, makeStorage: () => Promise<Storage>): void {
  describe(`ApiKeyRepository contract: ${name}`, () => {
    let storage: Storage;
    before(async () => { storage = await makeStorage(); });

    /** A new organization with its owner, and a helper inserting keys into it. */
    async function tenant() {
      const owner = await seedUser(storage);
      const org = await seedOrganization(storage);
      const addKey = async (overrides: Partial<ApiKey> = {}): Promise<ApiKey> => {
        const key = anApiKey(org.id, owner.id, overrides);
        await storage.apiKeys.insert(key);
        return key;
      };
      return { organizationId: org.id, addKey };
    }

    it('finds an inserted key by hash and by id within its organization, every field intact', async () => {
      const { organizationId, addKey } = await tenant();
      const key = await addKey({ isSandbox: false, scopes: ['messages:send', 'events:trigger'], expiresAt: at(3600), lastUsedAt: at(5) });
      expect(await storage.apiKeys.findByHash(key.keyHash)).to.deep.equal(key);
      expect(await storage.apiKeys.findById(organizationId, key.id)).to.deep.equal(key);
    });

    it('answers null for an unknown hash or id', async () => {
      const { organizationId } = await tenant();
      expect(await storage.apiKeys.findByHash(uniqueId('hash'))).to.equal(null);
      expect(await storage.apiKeys.findById(organizationId, uniqueId('key'))).to.equal(null);
    });

    it("does not find another organization's key by id (tenant isolation)", async () => {
      const a = await tenant();
      const b = await tenant();
      const keyOfA = await a.addKey();
      expect(await storage.apiKeys.findById(b.organizationId, keyOfA.id)).to.equal(null);
      expect((await storage.apiKeys.listByOrganization(b.organizationId, 100)).map((k) => k.id)).to.not.include(keyOfA.id);
    });

    it('rejects a second key with the same hash with CONFLICT', async () => {
      const a = await tenant();
      const b = await tenant();
      const key = await a.addKey();
      const error = await rejection(b.addKey({ keyHash: key.keyHash }));
      expect(error.code).to.equal('CONFLICT');
      expect(await storage.apiKeys.findByHash(key.keyHash)).to.deep.equal(key);
      expect(await storage.apiKeys.listByOrganization(b.organizationId, 10)).to.deep.equal([]);
    });

    it('lists the keys of an organization newest first, at most limit', async () => {
      const { organizationId, addKey } = await tenant();
      const middle = await addKey({ createdAt: at(20) });
      const oldest = await addKey({ createdAt: at(10) });
      const newest = await addKey({ createdAt: at(30) });
      await (await tenant()).addKey({ createdAt: at(40) });
      expect(await storage.apiKeys.listByOrganization(organizationId, 10)).to.deep.equal([newest, middle, oldest]);
      expect(await storage.apiKeys.listByOrganization(organizationId, 2)).to.deep.equal([newest, middle]);
    });

    it('revokes a key once: a second revoke keeps the first time', async () => {
      const { organizationId, addKey } = await tenant();
      const key = await addKey();
      const revoked = await storage.apiKeys.revoke(organizationId, key.id, at(100));
      expect(revoked).to.deep.equal({ ...key, revokedAt: at(100) });
      const again = await storage.apiKeys.revoke(organizationId, key.id, at(200));
      expect(again).to.deep.equal({ ...key, revokedAt: at(100) });
      expect(await storage.apiKeys.findByHash(key.keyHash)).to.deep.equal({ ...key, revokedAt: at(100) });
    });

    it("answers null when revoking another organization's key, and leaves it active", async () => {
      const a = await tenant();
      const b = await tenant();
      const keyOfA = await a.addKey();
      expect(await storage.apiKeys.revoke(b.organizationId, keyOfA.id, at(100))).to.equal(null);
      expect(await storage.apiKeys.findById(a.organizationId, keyOfA.id)).to.deep.equal(keyOfA);
    });

    it('answers null when revoking an unknown key', async () => {
      const { organizationId } = await tenant();
      expect(await storage.apiKeys.revoke(organizationId, uniqueId('key'), at(1))).to.equal(null);
    });

    it('records the last use of a key and of that key only, at most once a minute', async () => {
      const { organizationId, addKey } = await tenant();
      const key = await addKey();
      const other = await addKey();
      await storage.apiKeys.touchLastUsed(key.id, at(50), '203.0.113.7');
      await storage.apiKeys.touchLastUsed(key.id, at(70), '198.51.100.1'); // 20 s later (another process): not written
      expect(await storage.apiKeys.findById(organizationId, key.id)).to.deep.equal({ ...key, lastUsedAt: at(50), lastUsedIp: '203.0.113.7' });
      await storage.apiKeys.touchLastUsed(key.id, at(110), '2001:db8::1');
      expect(await storage.apiKeys.findById(organizationId, key.id)).to.deep.equal({ ...key, lastUsedAt: at(110), lastUsedIp: '2001:db8::1' });
      expect(await storage.apiKeys.findById(organizationId, other.id)).to.deep.equal(other);
    });

    it('replaces the allowed address ranges of a key of the organization only', async () => {
      const { organizationId, addKey } = await tenant();
      const key = await addKey();
      const ranges = ['203.0.113.0/24', '2001:db8::/32'];
      expect(await storage.apiKeys.setAllowedCidrs(organizationId, key.id, ranges)).to.deep.equal({ ...key, allowedCidrs: ranges });
      expect((await storage.apiKeys.findByHash(key.keyHash))!.allowedCidrs).to.deep.equal(ranges);
      expect(await storage.apiKeys.setAllowedCidrs(uniqueId('org'), key.id, [])).to.equal(null);
      expect(await storage.apiKeys.setAllowedCidrs(organizationId, key.id, [])).to.deep.equal(key);
    });
  });
}
