import { expect } from 'chai';
import type { Storage } from '../../core/ports/storage.ts';
import { anOrganization, at, seedOrganization, uniqueId } from './contract-fixtures.ts';

/** The OrganizationRepository contract (core/ports/organization-repository.ts), run against every Storage. */
export function describeOrganizationRepositoryContract(name: string, makeStorage: () => Promise<Storage>): void {
  describe(`OrganizationRepository contract: ${name}`, () => {
    let storage: Storage;
    before(async () => { storage = await makeStorage(); });

    it('finds an inserted organization by id with every field intact', async () => {
      const organization = anOrganization({
        industry: 'Retail', businessPhone: '+233241234567', businessEmail: 'ops@kente.example', website: 'https://kente.example',
        onboardingComplete: true, complianceAcknowledged: true, monthlyVolume: 25_000, preferredChannels: ['SMS', 'WHATSAPP'],
        paused: true, updatedAt: at(5),
      });
      await storage.organizations.insert(organization);
      expect(await storage.organizations.findById(organization.id)).to.deep.equal(organization);
    });

    it('answers null for an unknown id', async () => {
      expect(await storage.organizations.findById(uniqueId('org'))).to.equal(null);
    });

    it('changes only the given fields, sets updatedAt and returns the stored organization', async () => {
      const organization = await seedOrganization(storage, { industry: 'Retail', website: 'https://old.example' });
      const updated = await storage.organizations.update(organization.id, { name: 'Adinkra Ltd', website: null, monthlyVolume: 900 }, at(60));
      const expected = { ...organization, name: 'Adinkra Ltd', website: null, monthlyVolume: 900, updatedAt: at(60) };
      expect(updated).to.deep.equal(expected);
      expect(await storage.organizations.findById(organization.id)).to.deep.equal(expected);
    });

    it('round-trips preferredChannels as a JSON list, including back to empty', async () => {
      const organization = await seedOrganization(storage);
      await storage.organizations.update(organization.id, { preferredChannels: ['EMAIL', 'SMS', 'PUSH'] }, at(1));
      expect((await storage.organizations.findById(organization.id))?.preferredChannels).to.deep.equal(['EMAIL', 'SMS', 'PUSH']);
      await storage.organizations.update(organization.id, { preferredChannels: [] }, at(2));
      expect((await storage.organizations.findById(organization.id))?.preferredChannels).to.deep.equal([]);
    });

    it('updates booleans both ways', async () => {
      const organization = await seedOrganization(storage);
      await storage.organizations.update(organization.id, { onboardingComplete: true, complianceAcknowledged: true }, at(1));
      await storage.organizations.update(organization.id, { complianceAcknowledged: false }, at(2));
      expect(await storage.organizations.findById(organization.id)).to.deep.include({ onboardingComplete: true, complianceAcknowledged: false, updatedAt: at(2) });
    });

    it('leaves other organizations alone', async () => {
      const organization = await seedOrganization(storage);
      const other = await seedOrganization(storage);
      await storage.organizations.update(organization.id, { name: 'Changed' }, at(1));
      expect(await storage.organizations.findById(other.id)).to.deep.equal(other);
    });

    it('answers null when updating an unknown organization', async () => {
      const id = uniqueId('org');
      expect(await storage.organizations.update(id, { name: 'Nobody' }, at(1))).to.equal(null);
      expect(await storage.organizations.findById(id)).to.equal(null);
    });
  });
}
