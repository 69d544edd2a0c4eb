import { InMemoryProviderMetricsRepository } from '../../adapters/memory/in-memory-provider-metrics-repository.ts';
import { InMemoryStorage } from '../../adapters/memory/in-memory-storage.ts';
import { MikroOrmStorage } from '../../adapters/postgres/mikro-orm-storage.ts';
import { SqlProviderMetricsRepository } from '../../adapters/postgres/sql-provider-metrics-repository.ts';
import { UuidV7IdGenerator } from '../../adapters/security/uuid-v7-id-generator.ts';
import { sharedInfrastructure } from '../support/shared-infrastructure.ts';
import { availableDatabaseKinds } from '../support/test-database.ts';
import { describeProviderMetricsContract } from './provider-metrics.contract.ts';

describeProviderMetricsContract('memory', async () => {
  const storage = new InMemoryStorage(new UuidV7IdGenerator());
  return { storage, metrics: new InMemoryProviderMetricsRepository(storage.state) };
});
for (const kind of await availableDatabaseKinds()) {
  describeProviderMetricsContract(kind, async () => {
    const infra = await sharedInfrastructure(kind);
    return { storage: new MikroOrmStorage(infra.database, new UuidV7IdGenerator(), infra.boss), metrics: new SqlProviderMetricsRepository(infra.database) };
  });
}
