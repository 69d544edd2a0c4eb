import { expect } from 'chai';
import type { InboxStreamLeases } from '../../core/ports/inbox-stream-leases.ts';
import { at, uniqueId } from './contract-fixtures.ts';

/** The InboxStreamLeases contract (core/ports/inbox-stream-leases.ts), run against every implementation. */
export function describeInboxStreamLeasesContract(name: string, make: () => Promise<InboxStreamLeases>, seedOrganization: () => Promise<string>): void {
  describe(`InboxStreamLeases contract: ${name}`, () => {
    let leases: InboxStreamLeases;
    before(async () => { leases = await make(); });
    const lease = (organizationId: string, subscriberId: string, holder = 'process-a') => ({ id: uniqueId('lease'), organizationId, subscriberId, holder });

    it('never passes the per-subscriber limit: of 100 concurrent acquires exactly the limit land, other subscribers count apart', async () => {
      const [org, other] = [await seedOrganization(), await seedOrganization()];
      const taken = await Promise.all(Array.from({ length: 100 }, (_, i) => leases.acquire(lease(org, 'alice', i % 2 ? 'process-a' : 'process-b'), 10, at(0), at(60))));
      expect(taken.filter(Boolean)).to.have.length(10);
      expect(await leases.acquire(lease(org, 'bob'), 10, at(0), at(60))).to.equal(true);
      expect(await leases.acquire(lease(other, 'alice'), 10, at(0), at(60))).to.equal(true);
    });

    it('frees a slot when a lease is released, and when it expires unrenewed (its process died)', async () => {
      const org = await seedOrganization();
      const [kept, closed, dead] = [lease(org, 'carol'), lease(org, 'carol'), lease(org, 'carol', 'process-dead')];
      for (const l of [kept, closed, dead]) expect(await leases.acquire(l, 3, at(0), at(60))).to.equal(true);
      expect(await leases.acquire(lease(org, 'carol'), 3, at(1), at(61))).to.equal(false);
      await leases.release([closed.id]);
      expect(await leases.acquire(lease(org, 'carol'), 3, at(2), at(62))).to.equal(true);
      await leases.renew([kept.id], at(30), at(90)); // the living process renews its streams; the dead one does not
      expect(await leases.acquire(lease(org, 'carol'), 3, at(59), at(119))).to.equal(false);
      expect(await leases.acquire(lease(org, 'carol'), 3, at(61), at(121))).to.equal(true); // the dead process's lease lapsed at 60
      expect(await leases.acquire(lease(org, 'carol'), 3, at(61), at(121))).to.equal(false); // kept (to 90), and the ones taken at 2 (to 62) and 61
    });
  });
}
