import { expect } from 'chai';
import { DEFAULT_DELIVERY_LIMITS, type TenantDeliveryLimitRepository } from '../../core/ports/tenant-delivery-limits.ts';
import { T0, uniqueId } from './contract-fixtures.ts';

/**
 * The TenantDeliveryLimitRepository contract (core/ports/tenant-delivery-limits.ts), run against every
 * implementation. `make` answers two repositories over the same store (two processes): a change saved
 * through one is read by the other within `readsWithinMs` (the adapter's cache period).
 */
export function describeTenantDeliveryLimitsContract(name: string, make: () => Promise<{ one: TenantDeliveryLimitRepository; other: TenantDeliveryLimitRepository; readsWithinMs: number }>): void {
  describe(`TenantDeliveryLimitRepository contract: ${name}`, () => {
    let repos: Awaited<ReturnType<typeof make>>;
    before(async () => { repos = await make(); });

    it('answers the defaults (weight 1, no ceiling) for an organization without limits', async () => {
      expect(await repos.one.find(uniqueId('org'))).to.deep.equal(DEFAULT_DELIVERY_LIMITS);
    });

    it('answers what was saved, and the latest save', async () => {
      const org = uniqueId('org');
      await repos.one.save(org, { weight: 2.5, maxPerSecond: 40 }, T0);
      expect(await repos.one.find(org)).to.deep.equal({ weight: 2.5, maxPerSecond: 40 });
      await repos.one.save(org, { weight: 1, maxPerSecond: null }, T0);
      expect(await repos.one.find(org)).to.deep.equal({ weight: 1, maxPerSecond: null });
    });

    it('answers every one of many concurrent finds alike, each its own copy', async () => {
      const org = uniqueId('org');
      await repos.one.save(org, { weight: 3, maxPerSecond: 7 }, T0);
      const answers = await Promise.all(Array.from({ length: 25 }, () => repos.other.find(org)));
      answers.forEach((a) => expect(a).to.deep.equal({ weight: 3, maxPerSecond: 7 }));
      answers[0]!.maxPerSecond = 1_000;
      expect(await repos.other.find(org), 'a caller changing its answer changes nobody else\'s').to.deep.equal({ weight: 3, maxPerSecond: 7 });
    });

    it('reads a change saved through another process within the cache period', async () => {
      const org = uniqueId('org');
      await repos.one.save(org, { weight: 1, maxPerSecond: 10 }, T0);
      expect(await repos.other.find(org)).to.deep.equal({ weight: 1, maxPerSecond: 10 });
      await repos.one.save(org, { weight: 1, maxPerSecond: 20 }, T0);
      await new Promise((resolve) => setTimeout(resolve, repos.readsWithinMs + 10));
      expect(await repos.other.find(org)).to.deep.equal({ weight: 1, maxPerSecond: 20 });
    });
  });
}
