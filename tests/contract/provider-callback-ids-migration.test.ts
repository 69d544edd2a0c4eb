import { expect } from 'chai';
import { deliveryName } from '../../core/domain/provider.ts';
import { MikroOrmStorage } from '../../adapters/postgres/mikro-orm-storage.ts';
import { providerCallbackIds } from '../../adapters/postgres/migrations/0045-provider-callback-ids.ts';
import { SqlProviderRepository } from '../../adapters/postgres/sql-provider-repository.ts';
import { AesGcmCredentialCipher } from '../../adapters/security/aes-gcm-credential-cipher.ts';
import { UuidV7IdGenerator } from '../../adapters/security/uuid-v7-id-generator.ts';
import { sharedInfrastructure } from '../support/shared-infrastructure.ts';
import { availableDatabaseKinds } from '../support/test-database.ts';
import { aMessage, anOrganization, uniqueId } from './contract-fixtures.ts';

/**
 * Migration 0045 (docs/adr/0033-vendor-callbacks-bound-to-accounts.md) on both databases: every provider
 * gets its own unguessable callback id, and messages of organizations' own accounts still awaiting a
 * report are renamed to the namespaced name their reports are now matched on.
 */
for (const kind of await availableDatabaseKinds()) {
  describe(`Migration 0045 provider callback ids: ${kind}`, () => {
    const account = (name: string, organizationId: string | null) => ({
      name, vendor: 'twilio-sms', channel: 'SMS' as const, priority: 5_000, active: false, countries: ['ZZ'], settings: {}, organizationId, platformFallback: true,
    });

    it('gives each provider a distinct 32-hex callback id', async () => {
      const infra = await sharedInfrastructure(kind);
      const repo = new SqlProviderRepository(infra.database, new AesGcmCredentialCipher('0'.repeat(64)), new UuidV7IdGenerator());
      const org = anOrganization();
      await new MikroOrmStorage(infra.database, new UuidV7IdGenerator(), infra.boss).organizations.insert(org);
      const a = await repo.create(account(uniqueId('cb').toLowerCase().slice(0, 40), org.id), null, new Date());
      const b = await repo.create(account(uniqueId('cb').toLowerCase().slice(0, 40), org.id), null, new Date());
      expect(a.callbackId).to.match(/^[0-9a-f]{32}$/);
      expect(b.callbackId).to.match(/^[0-9a-f]{32}$/).and.not.equal(a.callbackId);
      expect((await repo.listWithCredentials()).find((p) => p.config.id === a.id)?.config.callbackId).to.equal(a.callbackId);
      for (const p of [a, b]) await repo.delete(p.id);
    });

    it('renames SENT messages of own accounts to <organizationId>/<name>, not delivered ones nor a name a platform provider also has', async () => {
      const infra = await sharedInfrastructure(kind);
      const ids = new UuidV7IdGenerator();
      const repo = new SqlProviderRepository(infra.database, new AesGcmCredentialCipher('0'.repeat(64)), ids);
      const storage = new MikroOrmStorage(infra.database, ids, infra.boss);
      const org = anOrganization();
      await storage.organizations.insert(org);
      const own = await repo.create(account(uniqueId('own').toLowerCase().slice(0, 40), org.id), null, new Date());
      const shared = uniqueId('both').toLowerCase().slice(0, 40);
      const ownShared = await repo.create(account(shared, org.id), null, new Date());
      const platform = await repo.upsert({ ...account(shared, null) }, null, new Date());
      const awaiting = aMessage(org.id, { status: 'SENT', provider: own.name, providerMessageId: uniqueId('SM') });
      const done = aMessage(org.id, { status: 'DELIVERED', provider: own.name, providerMessageId: uniqueId('SM') });
      const ambiguous = aMessage(org.id, { status: 'SENT', provider: shared, providerMessageId: uniqueId('SM') });
      await storage.messages.insertMany([awaiting, done, ambiguous]);

      await infra.database.em().execute(providerCallbackIds.statements[2]!);

      expect((await storage.messages.findById(org.id, awaiting.id))?.provider).to.equal(deliveryName(own));
      expect((await storage.messages.findById(org.id, done.id))?.provider).to.equal(own.name);
      expect((await storage.messages.findById(org.id, ambiguous.id))?.provider).to.equal(shared);
      expect((await storage.messageStatus.findByProviderRef(deliveryName(own), awaiting.providerMessageId!))?.id).to.equal(awaiting.id);
      for (const p of [own, ownShared, platform]) await repo.delete(p.id);
    });
  });
}
