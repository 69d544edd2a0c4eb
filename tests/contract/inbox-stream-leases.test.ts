import { InMemoryInboxStreamLeases } from '../../adapters/memory/in-memory-inbox-stream-leases.ts';
import { MikroOrmStorage } from '../../adapters/postgres/mikro-orm-storage.ts';
import { SqlInboxStreamLeases } from '../../adapters/postgres/sql-inbox-stream-leases.ts';
import { UuidV7IdGenerator } from '../../adapters/security/uuid-v7-id-generator.ts';
import { sharedInfrastructure } from '../support/shared-infrastructure.ts';
import { availableDatabaseKinds } from '../support/test-database.ts';
import { uniqueId } from './contract-fixtures.ts';
import { describeInboxStreamLeasesContract } from './inbox-stream-leases.contract.ts';
import { seedOrganization } from './contract-fixtures.ts';

describeInboxStreamLeasesContract('memory', async () => new InMemoryInboxStreamLeases(), async () => uniqueId('org'));
for (const kind of await availableDatabaseKinds()) {
  describeInboxStreamLeasesContract(kind, async () => new SqlInboxStreamLeases((await sharedInfrastructure(kind)).database), async () => {
    const infra = await sharedInfrastructure(kind);
    return (await seedOrganization(new MikroOrmStorage(infra.database, new UuidV7IdGenerator(), infra.boss))).id;
  });
}
