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
      // Each slot as a moment (answer time + wait), so the time the takes themselves took on a loaded
      // machine does not count against the interval.
      const slots = await Promise.all(Array.from({ length: 5 }, async () => { const s = await buckets.take(key, 10, 1_000); return { s, at: Date.now() }; }));
      expect(slots.every(({ s }) => s.granted)).to.equal(true);
      const due = slots.map(({ s, at }) => (s.granted ? at + s.waitMs : -1)).sort((a, b) => a - b);
      expect(Math.min(...slots.map(({ s }) => (s.granted ? s.waitMs : -1)))).to.be.within(0, 60);
      due.slice(1).forEach((at, i) => expect(at - due[i]!, due.map((d) => d - due[0]!).join(' ')).to.be.within(50, 150));
      const refused = await buckets.take(key, 10, 0);
      expect(refused.granted).to.equal(false);
      expect(refused.granted ? 0 : refused.retryAfterMs).to.be.within(200, 520);
      expect((await buckets.take(uniqueId('rate'), 10, 0)).granted, 'another key has its own bucket').to.equal(true);
    });

    it('gives refused takers places in line one interval apart, so a backlog comes back at the rate, not all at once', async () => {
      const key = uniqueId('rate');
      expect((await buckets.take(key, 10, 0)).granted).to.equal(true);
      const refused = [];
      for (let i = 0; i < 5; i++) { const r = await buckets.take(key, 10, 0); refused.push({ r, at: Date.now() }); }
      expect(refused.every(({ r }) => !r.granted)).to.equal(true);
      expect(refused[0]!.r.granted ? -1 : refused[0]!.r.retryAfterMs).to.be.within(30, 100);
      // Each place in line as a moment (answer time + wait): one interval (100 ms) apart, not all at once.
      const places = refused.map(({ r, at }) => (r.granted ? -1 : at + r.retryAfterMs));
      places.slice(1).forEach((at, i) => expect(at - places[i]!, places.map((p) => p - places[0]!).join(' ')).to.be.within(60, 140));
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
