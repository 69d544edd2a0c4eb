import { expect } from 'chai';
import type { ProviderFields, ProviderRepository } from '../../core/ports/provider-repository.ts';
import { at, rejection, uniqueId } from './contract-fixtures.ts';

const fields = (name: string, overrides: Partial<ProviderFields> = {}): ProviderFields => ({
  name, vendor: 'outbox', channel: 'SMS', priority: 5_000, active: false, countries: ['zz'], settings: { senderId: 'NKRA' }, organizationId: null, platformFallback: true, ...overrides,
});

/**
 * The ProviderRepository contract (core/ports/provider-repository.ts), run against every adapter. The
 * providers table is shared with the run's other suites: providers here are inactive, on a country
 * no route uses, and deleted at the end.
 */
export function describeProviderRepositoryContract(name: string, make: () => Promise<ProviderRepository>, seedOrganization: () => Promise<string>): void {
  describe(`ProviderRepository contract: ${name}`, () => {
    let repo: ProviderRepository;
    const made: string[] = [];
    before(async () => { repo = await make(); });
    after(async () => { for (const id of made) await repo.delete(id); });

    it('never passes an organization\'s account limit: of 30 concurrent creates exactly the limit land, the rest answer null', async () => {
      const [org, other] = [await seedOrganization(), await seedOrganization()];
      const own = (organizationId: string) => ({ ...fields(uniqueId('own').toLowerCase()), organizationId });
      const created = await Promise.all(Array.from({ length: 30 }, () => repo.createOwned(own(org), { apiKey: 'k' }, at(1), 10)));
      expect(created.filter((c) => c !== null)).to.have.length(10);
      expect(await repo.listOwned(org)).to.have.length(10);
      expect(await repo.createOwned(own(other), null, at(1), 1)).to.not.equal(null); // another organization's count is its own
      expect(await repo.createOwned(own(other), null, at(1), 1)).to.equal(null);
      for (const p of [...await repo.listOwned(org), ...await repo.listOwned(other)]) made.push(p.id);
    });

    it('creates a provider with encrypted credentials, answers hasCredentials only, and decrypts them for the runtime', async () => {
      const created = await repo.create(fields(uniqueId('p').toLowerCase()), { apiKey: 'secret-1' }, at(1));
      made.push(created.id);
      expect(created).to.deep.include({ vendor: 'outbox', channel: 'SMS', countries: ['ZZ'], hasCredentials: true, active: false });
      expect(created).to.not.have.property('credentials');
      const loaded = (await repo.listWithCredentials()).find((p) => p.config.id === created.id);
      expect(loaded?.credentials).to.deep.equal({ apiKey: 'secret-1' });
      expect((await rejection(repo.create(fields(created.name), null, at(2)))).code).to.equal('CONFLICT');
    });

    it('updates the given fields, replaces credentials only when given, and answers null for an unknown id', async () => {
      const created = await repo.create(fields(uniqueId('p').toLowerCase()), { apiKey: 'old' }, at(1));
      made.push(created.id);
      const moved = await repo.update(created.id, { priority: 4_000, countries: ['yy', 'zz'] }, null, at(5));
      expect(moved).to.deep.include({ priority: 4_000, countries: ['YY', 'ZZ'], hasCredentials: true, updatedAt: at(5) });
      expect((await repo.listWithCredentials()).find((p) => p.config.id === created.id)?.credentials).to.deep.equal({ apiKey: 'old' });
      await repo.update(created.id, {}, { apiKey: 'new' }, at(6));
      expect((await repo.listWithCredentials()).find((p) => p.config.id === created.id)?.credentials).to.deep.equal({ apiKey: 'new' });
      expect(await repo.update(uniqueId('missing'), { priority: 1 }, null, at(7))).to.equal(null);
    });

    it('moves its configuration version on create, update and delete, and deletes once', async () => {
      const v0 = await repo.configVersion();
      const created = await repo.create(fields(uniqueId('p').toLowerCase()), null, at(10));
      const v1 = await repo.configVersion();
      await repo.update(created.id, { priority: 4_500 }, null, at(11));
      const v2 = await repo.configVersion();
      expect(await repo.delete(created.id)).to.equal(true);
      const v3 = await repo.configVersion();
      expect([v1 !== v0, v2 !== v1, v3 !== v2]).to.deep.equal([true, true, true]); // v3 may equal v0: the same set of providers again
      expect(await repo.delete(created.id)).to.equal(false);
      expect(await repo.findById(created.id)).to.equal(null);
    });
  });
}
