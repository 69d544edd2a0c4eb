import { InMemoryStorage } from '../../adapters/memory/in-memory-storage.ts';
import { MikroOrmStorage } from '../../adapters/postgres/mikro-orm-storage.ts';
import { UuidV7IdGenerator } from '../../adapters/security/uuid-v7-id-generator.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { sharedInfrastructure } from '../support/shared-infrastructure.ts';
import { availableDatabaseKinds } from '../support/test-database.ts';

/** One implementation a contract suite runs against: a name for the describe block and a factory. */
export interface Implementation<T> {
  name: string;
  make: () => Promise<T>;
}

/**
 * Every Storage implementation: in memory, MikroORM on PGlite and, when it answers, MikroORM on
 * PostgreSQL. The real ones share the run's database, so suites create their own records.
 */
export async function storageImplementations(): Promise<Array<Implementation<Storage>>> {
  const real = (await availableDatabaseKinds()).map((kind): Implementation<Storage> => ({
    name: kind,
    make: async () => {
      const infra = await sharedInfrastructure(kind);
      return new MikroOrmStorage(infra.database, new UuidV7IdGenerator(), infra.boss);
    },
  }));
  return [{ name: 'memory', make: async () => new InMemoryStorage(new UuidV7IdGenerator()) }, ...real];
}
