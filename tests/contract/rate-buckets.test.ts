import { InMemoryRateBuckets } from '../../adapters/memory/in-memory-rate-buckets.ts';
import { SqlRateBuckets } from '../../adapters/postgres/sql-rate-buckets.ts';
import { sharedInfrastructure } from '../support/shared-infrastructure.ts';
import { availableDatabaseKinds } from '../support/test-database.ts';
import { describeRateBucketsContract } from './rate-buckets.contract.ts';

describeRateBucketsContract('memory', async () => new InMemoryRateBuckets());
for (const kind of await availableDatabaseKinds()) {
  describeRateBucketsContract(kind, async () => new SqlRateBuckets((await sharedInfrastructure(kind)).database));
}
