import { expect } from 'chai';
import { FixedClock } from '../../adapters/memory/fixed-clock.ts';
import type { RateLimiter } from '../../core/ports/rate-limiter.ts';
import { uniqueId } from './contract-fixtures.ts';

/** A minute boundary: a 60-second window starts here. */
const MINUTE = new Date('2026-01-15T09:00:00.000Z');

function after(seconds: number): Date {
  return new Date(MINUTE.getTime() + seconds * 1000);
}

/**
 * The RateLimiter contract (core/ports/rate-limiter.ts). `makeLimiter` builds a limiter that reads
 * the given clock; the real ones share a database, so every test uses its own keys.
 */
export function describeRateLimiterContract(name: string, makeLimiter: (clock: FixedClock) => Promise<RateLimiter>): void {
  describe(`RateLimiter contract: ${name}`, () => {
    let clock: FixedClock;
    let limiter: RateLimiter;
    beforeEach(async () => {
      clock = new FixedClock(after(10));
      limiter = await makeLimiter(clock);
    });

    it('clears one key of one window length, leaving other keys and lengths', async () => {
      const [key, other] = [uniqueId('login'), uniqueId('login')];
      for (let i = 0; i < 3; i += 1) { await limiter.hit(key, 3, 60); await limiter.hit(key, 3, 900); await limiter.hit(other, 3, 60); }
      expect((await limiter.check(key, 3, 60)).allowed).to.equal(false);
      await limiter.clear(key, 60);
      expect(await limiter.check(key, 3, 60)).to.include({ allowed: true, count: 0 });
      expect((await limiter.check(key, 3, 900)).count).to.equal(3);
      expect((await limiter.check(other, 3, 60)).count).to.equal(3);
      expect((await limiter.hit(key, 3, 60)).count).to.equal(1);
    });

    it('counts the hits of a key within a window', async () => {
      const key = uniqueId('login');
      const counts = [];
      for (let i = 0; i < 3; i += 1) counts.push((await limiter.hit(key, 5, 60)).count);
      expect(counts).to.deep.equal([1, 2, 3]);
    });

    it('checks a key without counting a hit: allowed until the hits reach the limit', async () => {
      const key = uniqueId('login');
      expect(await limiter.check(key, 2, 60)).to.deep.include({ allowed: true, count: 0 });
      await limiter.hit(key, 2, 60);
      expect(await limiter.check(key, 2, 60)).to.deep.include({ allowed: true, count: 1 });
      expect(await limiter.check(key, 2, 60)).to.deep.include({ allowed: true, count: 1 });
      await limiter.hit(key, 2, 60);
      expect(await limiter.check(key, 2, 60)).to.deep.include({ allowed: false, count: 2 });
      clock.set(after(70));
      expect(await limiter.check(key, 2, 60)).to.deep.include({ allowed: true, count: 0 });
    });

    it('allows up to the limit, then refuses', async () => {
      const key = uniqueId('login');
      const verdicts = [];
      for (let i = 0; i < 5; i += 1) verdicts.push(await limiter.hit(key, 3, 60));
      expect(verdicts.map((v) => v.allowed)).to.deep.equal([true, true, true, false, false]);
      expect(verdicts.map((v) => v.count)).to.deep.equal([1, 2, 3, 4, 5]);
    });

    it('starts counting again in the next window', async () => {
      const key = uniqueId('login');
      for (let i = 0; i < 4; i += 1) await limiter.hit(key, 3, 60);
      clock.advance(50_000);
      expect(await limiter.hit(key, 3, 60)).to.deep.include({ allowed: true, count: 1 });
    });

    it('keeps the same window until its end, even across most of it', async () => {
      const key = uniqueId('login');
      await limiter.hit(key, 3, 60);
      clock.set(after(59.999));
      expect((await limiter.hit(key, 3, 60)).count).to.equal(2);
    });

    it('counts keys independently', async () => {
      const a = uniqueId('ip');
      const b = uniqueId('ip');
      for (let i = 0; i < 3; i += 1) await limiter.hit(a, 2, 60);
      expect(await limiter.hit(b, 2, 60)).to.deep.include({ allowed: true, count: 1 });
      expect(await limiter.hit(a, 2, 60)).to.deep.include({ allowed: false, count: 4 });
    });

    it('says how many seconds remain in the window, never less than one', async () => {
      const key = uniqueId('login');
      expect((await limiter.hit(key, 1, 60)).retryAfterSeconds).to.equal(50);
      clock.set(after(44.2));
      expect((await limiter.hit(key, 1, 60)).retryAfterSeconds).to.equal(16);
      clock.set(after(59.9));
      expect((await limiter.hit(key, 1, 60)).retryAfterSeconds).to.equal(1);
    });

    it('aligns hour-long windows to the hour', async () => {
      const key = uniqueId('velocity');
      clock.set(new Date('2026-01-15T09:45:00.000Z'));
      expect(await limiter.hit(key, 10, 3600)).to.deep.include({ count: 1, retryAfterSeconds: 900 });
      clock.set(new Date('2026-01-15T10:00:00.000Z'));
      expect(await limiter.hit(key, 10, 3600)).to.deep.include({ count: 1, retryAfterSeconds: 3600 });
    });

    it('allows exactly the limit out of 30 concurrent hits on one key', async () => {
      const key = uniqueId('burst');
      const verdicts = await Promise.all(Array.from({ length: 30 }, () => limiter.hit(key, 10, 60)));
      expect(verdicts.filter((v) => v.allowed)).to.have.length(10);
      expect(verdicts.map((v) => v.count).sort((x, y) => x - y)).to.deep.equal(Array.from({ length: 30 }, (_, i) => i + 1));
      for (const verdict of verdicts) expect(verdict.allowed).to.equal(verdict.count <= 10);
    });
  });
}
