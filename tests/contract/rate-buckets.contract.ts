import { expect } from 'chai';
import type { RateBuckets } from '../../core/ports/rate-buckets.ts';
import { uniqueId } from './contract-fixtures.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The RateBuckets contract (core/ports/rate-buckets.ts), run against every implementation. */
export function describeRateBucketsContract(name: string, make: () => Promise<RateBuckets>): void {
  describe(`RateBuckets contract: ${name}`, () => {
    let buckets: RateBuckets;
    before(async () => { buckets = await make(); });

    it('grants concurrent takers at most rate * window + 1 slots, however many take at once', async () => {
      const key = uniqueId('rate');
      const rate = 20;
      const started = Date.now();
      const until = started + 700;
      let granted = 0;
      await Promise.all(Array.from({ length: 8 }, async () => {
        while (Date.now() < until) {
          const slot = await buckets.take(key, rate, 0);
          if (slot.granted) granted += 1;
          else await pause(Math.min(slot.retryAfterMs, 10));
        }
      }));
      const seconds = (Date.now() - started) / 1000;
      expect(granted, `${granted} slots in ${seconds} s`).to.be.at.most(Math.floor(rate * seconds) + 1);
      expect(granted, 'the takers were served, not starved').to.be.at.least(Math.floor(rate * 0.7 * 0.6));
    });

    it('reserves slots one interval apart within the wait allowed, and refuses beyond it with the time until one is in reach', async () => {
      const key = uniqueId('rate');
      const slots = await Promise.all(Array.from({ length: 5 }, () => buckets.take(key, 10, 1_000)));
      const waits = slots.map((s) => (s.granted ? s.waitMs : -1)).sort((a, b) => a - b);
      expect(waits[0]).to.be.within(0, 30);
      waits.slice(1).forEach((wait, i) => expect(wait - waits[i]!, waits.join(' ')).to.be.within(60, 105));
      const refused = await buckets.take(key, 10, 0);
      expect(refused.granted).to.equal(false);
      expect(refused.granted ? 0 : refused.retryAfterMs).to.be.within(350, 520);
      expect((await buckets.take(uniqueId('rate'), 10, 0)).granted, 'another key has its own bucket').to.equal(true);
    });

    it('gives refused takers places in line one interval apart, so a backlog comes back at the rate, not all at once', async () => {
      const key = uniqueId('rate');
      expect((await buckets.take(key, 10, 0)).granted).to.equal(true);
      const refused = [];
      for (let i = 0; i < 5; i++) refused.push(await buckets.take(key, 10, 0));
      const after = refused.map((r) => (r.granted ? -1 : r.retryAfterMs));
      expect(after[0]).to.be.within(50, 100);
      after.slice(1).forEach((ms, i) => expect(ms - after[i]!, after.join(' ')).to.be.within(80, 105));
    });

    it('holds a key off for the back-off after a vendor throttled it', async () => {
      const key = uniqueId('rate');
      expect((await buckets.take(key, 100, 0)).granted).to.equal(true);
      await buckets.backOff(key, 0.5);
      const refused = await buckets.take(key, 100, 0);
      expect(refused.granted ? 0 : refused.retryAfterMs).to.be.within(380, 500);
      await pause(520);
      expect((await buckets.take(key, 100, 0)).granted).to.equal(true);
    });
  });
}
