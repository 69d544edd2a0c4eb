import { expect } from 'chai';
import { FixedClock } from '../../adapters/memory/fixed-clock.ts';
import { InMemoryRateLimiter } from '../../adapters/memory/in-memory-rate-limiter.ts';
import { openDatabase } from '../../adapters/postgres/database.ts';
import { PostgresRateLimiter } from '../../adapters/postgres/postgres-rate-limiter.ts';
import { sharedInfrastructure } from '../support/shared-infrastructure.ts';
import { availableDatabaseKinds, testDatabaseUrl } from '../support/test-database.ts';
import { uniqueId } from './contract-fixtures.ts';
import { describeRateLimiterContract } from './rate-limiter.contract.ts';

const kinds = await availableDatabaseKinds();

describeRateLimiterContract('memory', async (clock) => new InMemoryRateLimiter(clock));
for (const kind of kinds) {
  describeRateLimiterContract(kind, async (clock) => new PostgresRateLimiter((await sharedInfrastructure(kind)).database, clock));
}

for (const kind of kinds) {
  describe(`PostgresRateLimiter on ${kind}`, () => {
    it('purges the windows that have ended and keeps the others', async () => {
      // Long ago, so that the purge cannot touch windows other tests are counting in.
      const clock = new FixedClock(new Date('2001-01-01T00:00:10.000Z'));
      const limiter = new PostgresRateLimiter((await sharedInfrastructure(kind)).database, clock);
      const ended = uniqueId('ended');
      const open = uniqueId('open');
      await limiter.hit(ended, 5, 60);
      await limiter.hit(open, 5, 3600);
      clock.set(new Date('2001-01-01T00:02:00.000Z'));
      expect(await limiter.purgeExpired()).to.be.at.least(1);
      expect((await limiter.hit(open, 5, 3600)).count).to.equal(2);
      clock.set(new Date('2001-01-01T00:00:20.000Z'));
      expect((await limiter.hit(ended, 5, 60)).count).to.equal(1);
    });
  });
}

if (kinds.includes('postgres')) {
  describe('PostgresRateLimiter across processes', () => {
    it('shares counters between limiters on separate connection pools', async () => {
      const url = await testDatabaseUrl();
      const other = await openDatabase({ databaseUrl: url ?? undefined, poolSize: 5 });
      try {
        const clock = new FixedClock();
        const first = new PostgresRateLimiter((await sharedInfrastructure('postgres')).database, clock);
        const second = new PostgresRateLimiter(other, clock);
        const key = uniqueId('shared');
        const verdicts = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? first : second).hit(key, 10, 60)));
        expect(verdicts.filter((v) => v.allowed)).to.have.length(10);
        expect(Math.max(...verdicts.map((v) => v.count))).to.equal(30);
      } finally {
        await other.close();
      }
    });
  });
}
