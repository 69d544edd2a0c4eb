import { InMemoryStorage } from '../../adapters/memory/in-memory-storage.ts';
import { PgliteInboxFeed, PostgresInboxFeed } from '../../adapters/postgres/pg-inbox-feed.ts';
import { MikroOrmStorage } from '../../adapters/postgres/mikro-orm-storage.ts';
import { UuidV7IdGenerator } from '../../adapters/security/uuid-v7-id-generator.ts';
import { sharedInfrastructure } from '../support/shared-infrastructure.ts';
import { availableDatabaseKinds } from '../support/test-database.ts';
import { describeInboxRepositoryContract, type InboxSubject } from './inbox-repository.contract.ts';

const implementations: Array<{ name: string; make: () => Promise<InboxSubject> }> = [
  { name: 'memory', make: async () => { const storage = new InMemoryStorage(new UuidV7IdGenerator()); return { storage, feed: storage.inboxFeed }; } },
  ...(await availableDatabaseKinds()).map((kind) => ({
    name: kind,
    make: async (): Promise<InboxSubject> => {
      const infra = await sharedInfrastructure(kind);
      const storage = new MikroOrmStorage(infra.database, new UuidV7IdGenerator(), infra.boss);
      const feed = infra.database.pglite ? new PgliteInboxFeed(infra.database.pglite) : new PostgresInboxFeed(infra.database.databaseUrl!);
      return { storage, feed };
    },
  })),
];

for (const implementation of implementations) describeInboxRepositoryContract(implementation.name, implementation.make);
