import { InMemoryTenantDeliveryLimitRepository } from '../../adapters/memory/in-memory-tenant-delivery-limit-repository.ts';
import { MemoryState } from '../../adapters/memory/memory-state.ts';
import { SqlTenantDeliveryLimitRepository } from '../../adapters/postgres/sql-tenant-delivery-limit-repository.ts';
import { sharedInfrastructure } from '../support/shared-infrastructure.ts';
import { availableDatabaseKinds } from '../support/test-database.ts';
import { describeTenantDeliveryLimitsContract } from './tenant-delivery-limits.contract.ts';

describeTenantDeliveryLimitsContract('memory', async () => {
  const state = new MemoryState();
  return { one: new InMemoryTenantDeliveryLimitRepository(state), other: new InMemoryTenantDeliveryLimitRepository(state), readsWithinMs: 0 };
});
for (const kind of await availableDatabaseKinds()) {
  describeTenantDeliveryLimitsContract(kind, async () => {
    const { database } = await sharedInfrastructure(kind);
    return { one: new SqlTenantDeliveryLimitRepository(database, { cacheMs: 100 }), other: new SqlTenantDeliveryLimitRepository(database, { cacheMs: 100 }), readsWithinMs: 100 };
  });
}
