import { expect } from 'chai';
import type { Membership } from '../../core/domain/organization.ts';
import type { MemberRole } from '../../core/domain/roles.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { at, rejection, seedOrganization, seedUser, uniqueId } from './contract-fixtures.ts';

/** The MembershipRepository contract (core/ports/membership-repository.ts), run against every Storage. */
export function describeMembershipRepositoryContract(name: string, makeStorage: () => Promise<Storage>): void {
  describe(`MembershipRepository contract: ${name}`, () => {
    let storage: Storage;
    before(async () => { storage = await makeStorage(); });

    async function member(organizationId: string, role: MemberRole = 'VIEWER', createdAt = at(0)): Promise<Membership> {
      const user = await seedUser(storage);
      const membership: Membership = { id: uniqueId('member'), organizationId, userId: user.id, role, createdAt };
      await storage.memberships.insert(membership);
      return membership;
    }

    it('finds an inserted membership by organization and user', async () => {
      const org = await seedOrganization(storage);
      const membership = await member(org.id, 'TENANT_OWNER');
      expect(await storage.memberships.find(org.id, membership.userId)).to.deep.equal(membership);
    });

    it('does not find a member of one organization in another (tenant isolation)', async () => {
      const orgA = await seedOrganization(storage);
      const orgB = await seedOrganization(storage);
      const ofA = await member(orgA.id, 'TENANT_OWNER');
      await member(orgB.id, 'TENANT_OWNER');
      expect(await storage.memberships.find(orgB.id, ofA.userId)).to.equal(null);
      expect((await storage.memberships.listByOrganization(orgB.id, 100)).map((m) => m.userId)).to.not.include(ofA.userId);
    });

    it('rejects a second membership of the same user in the same organization with CONFLICT', async () => {
      const org = await seedOrganization(storage);
      const first = await member(org.id, 'DEVELOPER');
      const again: Membership = { id: uniqueId('member'), organizationId: org.id, userId: first.userId, role: 'TENANT_ADMIN', createdAt: at(1) };
      const error = await rejection(storage.memberships.insert(again));
      expect(error.code).to.equal('CONFLICT');
      expect(await storage.memberships.find(org.id, first.userId)).to.deep.equal(first);
      expect(await storage.memberships.countByOrganization(org.id)).to.equal(1);
    });

    it('lets one user belong to several organizations', async () => {
      const orgA = await seedOrganization(storage);
      const orgB = await seedOrganization(storage);
      const inA = await member(orgA.id, 'TENANT_OWNER');
      const inB: Membership = { id: uniqueId('member'), organizationId: orgB.id, userId: inA.userId, role: 'VIEWER', createdAt: at(1) };
      await storage.memberships.insert(inB);
      const listed = await storage.memberships.listByUser(inA.userId, 10);
      expect(listed).to.have.deep.members([inA, inB]);
      expect(await storage.memberships.listByUser(inA.userId, 1)).to.have.length(1);
    });

    it('lists the members of an organization oldest first, at most limit', async () => {
      const org = await seedOrganization(storage);
      const second = await member(org.id, 'VIEWER', at(20));
      const first = await member(org.id, 'TENANT_OWNER', at(10));
      const third = await member(org.id, 'DEVELOPER', at(30));
      await member((await seedOrganization(storage)).id, 'VIEWER', at(5));
      expect(await storage.memberships.listByOrganization(org.id, 10)).to.deep.equal([first, second, third]);
      expect(await storage.memberships.listByOrganization(org.id, 2)).to.deep.equal([first, second]);
    });

    it('lists only the memberships of the given user', async () => {
      const org = await seedOrganization(storage);
      const mine = await member(org.id);
      await member(org.id);
      expect(await storage.memberships.listByUser(mine.userId, 10)).to.deep.equal([mine]);
      expect(await storage.memberships.listByUser(uniqueId('nobody'), 10)).to.deep.equal([]);
    });

    it('counts the members of one organization only', async () => {
      const org = await seedOrganization(storage);
      const other = await seedOrganization(storage);
      await member(org.id);
      await member(org.id);
      await member(other.id);
      expect(await storage.memberships.countByOrganization(org.id)).to.equal(2);
      expect(await storage.memberships.countByOrganization(uniqueId('org'))).to.equal(0);
    });
  });
}
