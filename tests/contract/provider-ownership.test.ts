import { expect } from 'chai';
import { MikroOrmStorage } from '../../adapters/postgres/mikro-orm-storage.ts';
import { SqlProviderRepository } from '../../adapters/postgres/sql-provider-repository.ts';
import { AesGcmCredentialCipher } from '../../adapters/security/aes-gcm-credential-cipher.ts';
import { UuidV7IdGenerator } from '../../adapters/security/uuid-v7-id-generator.ts';
import { sharedInfrastructure } from '../support/shared-infrastructure.ts';
import { availableDatabaseKinds } from '../support/test-database.ts';
import { anOrganization, uniqueId } from './contract-fixtures.ts';

const TEST_KEY = '0'.repeat(64);

/**
 * The SQL ProviderRepository (its only adapter) on both databases: organizations' own vendor accounts
 * are invisible to the platform reads and to other organizations, names are unique per owner, and a row
 * whose credentials another ENCRYPTION_KEY wrote is reported, not thrown (one bad row must not stop
 * every provider from loading).
 */
for (const kind of await availableDatabaseKinds()) {
  describe(`ProviderRepository ownership and unreadable credentials: ${kind}`, () => {
    const account = (name: string, organizationId: string | null) => ({
      name, vendor: 'outbox', channel: 'SMS' as const, priority: 5_000, active: false, countries: ['ZZ'], settings: {}, organizationId, platformFallback: false,
    });

    it('keeps own accounts out of the platform reads and out of other organizations\' reads; names are unique per owner', async () => {
      const infra = await sharedInfrastructure(kind);
      const repo = new SqlProviderRepository(infra.database, new AesGcmCredentialCipher(TEST_KEY), new UuidV7IdGenerator());
      const [org, other] = [anOrganization(), anOrganization()];
      const storage = new MikroOrmStorage(infra.database, new UuidV7IdGenerator(), infra.boss);
      for (const o of [org, other]) await storage.organizations.insert(o);
      const name = uniqueId('own').toLowerCase().slice(0, 40);
      const mine = await repo.create(account(name, org.id), { apiKey: 'k' }, new Date());
      const theirs = await repo.create(account(name, other.id), null, new Date()); // the same name under another owner
      expect(mine).to.include({ organizationId: org.id, platformFallback: false, hasCredentials: true });
      expect((await repo.list()).map((p) => p.id)).to.not.include(mine.id);
      expect(await repo.findById(mine.id)).to.equal(null);
      expect((await repo.listOwned(org.id)).map((p) => p.id)).to.deep.equal([mine.id]);
      expect(await repo.findOwned(other.id, mine.id)).to.equal(null);
      expect((await repo.findOwned(org.id, mine.id))?.name).to.equal(name);
      expect((await repo.create(account(name, org.id), null, new Date()).catch((e: { code?: string }) => e.code))).to.equal('CONFLICT');
      for (const p of [mine, theirs]) await repo.delete(p.id);
    });

    it('reports credentials written under another key instead of throwing, for the whole list and for one', async () => {
      const infra = await sharedInfrastructure(kind);
      const writer = new SqlProviderRepository(infra.database, new AesGcmCredentialCipher('1'.repeat(64)), new UuidV7IdGenerator());
      const reader = new SqlProviderRepository(infra.database, new AesGcmCredentialCipher(TEST_KEY), new UuidV7IdGenerator());
      const written = await writer.create(account(uniqueId('rotated').toLowerCase().slice(0, 40), null), { apiKey: 'secret-under-another-key' }, new Date());
      try {
        const listed = (await reader.listWithCredentials()).find((p) => p.config.id === written.id);
        expect(listed?.credentials).to.deep.equal({});
        expect(listed?.credentialsError).to.match(/cannot be decrypted/);
        expect((await reader.findWithCredentials(written.id))?.credentialsError).to.match(/ENCRYPTION_KEY/);
      } finally {
        await reader.delete(written.id);
      }
    });
  });
}
