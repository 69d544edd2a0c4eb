import { InMemoryNetworkAnalyticsRepository } from '../../adapters/memory/in-memory-network-analytics-repository.ts';
import { InMemoryRouteStatsRepository } from '../../adapters/memory/in-memory-route-stats-repository.ts';
import { InMemoryNetworkRouteRepository, InMemoryNumberNetworkRepository, InMemoryRoutingSettingsRepository } from '../../adapters/memory/in-memory-routing-repositories.ts';
import { InMemoryStorage } from '../../adapters/memory/in-memory-storage.ts';
import { MikroOrmStorage } from '../../adapters/postgres/mikro-orm-storage.ts';
import { SqlNetworkAnalyticsRepository, SqlNetworkRouteRepository, SqlNumberNetworkRepository, SqlRouteStatsRepository, SqlRoutingSettingsRepository } from '../../adapters/postgres/sql-routing-repositories.ts';
import { UuidV7IdGenerator } from '../../adapters/security/uuid-v7-id-generator.ts';
import { InMemoryRouteShiftAudience } from '../../adapters/memory/in-memory-route-shift-audience.ts';
import { SqlRouteShiftAudience } from '../../adapters/postgres/sql-route-shift-audience.ts';
import { sharedInfrastructure } from '../support/shared-infrastructure.ts';
import { availableDatabaseKinds } from '../support/test-database.ts';
import { describeRoutingContract } from './routing-repositories.contract.ts';

describeRoutingContract('memory', async () => {
  const storage = new InMemoryStorage(new UuidV7IdGenerator());
  return {
    storage, stats: new InMemoryRouteStatsRepository(), routes: new InMemoryNetworkRouteRepository(), numbers: new InMemoryNumberNetworkRepository(),
    settings: new InMemoryRoutingSettingsRepository(), analytics: new InMemoryNetworkAnalyticsRepository(storage.state), audience: new InMemoryRouteShiftAudience(storage.state),
  };
});
for (const kind of await availableDatabaseKinds()) {
  describeRoutingContract(kind, async () => {
    const infra = await sharedInfrastructure(kind);
    return {
      storage: new MikroOrmStorage(infra.database, new UuidV7IdGenerator(), infra.boss), stats: new SqlRouteStatsRepository(infra.database),
      routes: new SqlNetworkRouteRepository(infra.database), numbers: new SqlNumberNetworkRepository(infra.database), settings: new SqlRoutingSettingsRepository(infra.database),
      analytics: new SqlNetworkAnalyticsRepository(infra.database), audience: new SqlRouteShiftAudience(infra.database),
    };
  });
}
