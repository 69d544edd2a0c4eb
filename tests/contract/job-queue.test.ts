import { InMemoryStorage } from '../../adapters/memory/in-memory-storage.ts';
import { MikroOrmStorage } from '../../adapters/postgres/mikro-orm-storage.ts';
import { SqlTenantDeliveryLimitRepository } from '../../adapters/postgres/sql-tenant-delivery-limit-repository.ts';
import { PgBossJobQueue } from '../../adapters/queue/pg-boss-job-queue.ts';
import { UuidV7IdGenerator } from '../../adapters/security/uuid-v7-id-generator.ts';
import { sharedInfrastructure } from '../support/shared-infrastructure.ts';
import { availableDatabaseKinds } from '../support/test-database.ts';
import { describeJobQueueContract } from './job-queue.contract.ts';

describeJobQueueContract('memory (InMemoryJobQueue)', async () => {
  const storage = new InMemoryStorage(new UuidV7IdGenerator());
  const carrying = (marker: string) => (job: { data: Record<string, unknown> }) => job.data['marker'] === marker;
  return {
    storage,
    monitor: storage.jobs,
    stored: async (queue, marker) => storage.state.jobs.filter((j) => j.queue === queue && carrying(marker)(j)).map((j) => j.data),
    remove: async (queue, marker) => { storage.state.jobs = storage.state.jobs.filter((j) => j.queue !== queue || !carrying(marker)(j)); },
    fetch: async (queue, count) => Array.from({ length: count }, () => storage.jobs.fetch(queue, 1)).flat().map((j) => j.data),
    complete: async (queue, count) => Array.from({ length: count }, () => storage.jobs.fetch(queue, 1)).flat().map((j) => j.data),
    makeDue: async (queue, marker) => { for (const job of storage.state.jobs) if (job.queue === queue && carrying(marker)(job)) job.startAfterSeconds = 0; },
    setWeight: async (tenant, weight) => { storage.state.deliveryLimits.set(tenant, { weight, maxPerSecond: null }); },
  };
});

for (const kind of await availableDatabaseKinds()) {
  describeJobQueueContract(`${kind} (PgBossJobQueue)`, async () => {
    const { database, boss } = await sharedInfrastructure(kind);
    return {
      storage: new MikroOrmStorage(database, new UuidV7IdGenerator(), boss),
      monitor: new PgBossJobQueue(boss),
      stored: async (queue, marker) => (await boss.findJobs<Record<string, unknown>>(queue, { data: { marker } })).map((j) => j.data),
      remove: async (queue, marker) => {
        const ids = (await boss.findJobs(queue, { data: { marker } })).map((j) => j.id);
        if (ids.length > 0) await boss.deleteJob(queue, ids);
      },
      fetch: async (queue, count) => {
        const taken: Array<Record<string, unknown>> = [];
        for (let i = 0; i < count; i++) {
          const [job] = await boss.fetch<Record<string, unknown>>(queue, { batchSize: 1 });
          if (!job) break;
          await boss.deleteJob(queue, job.id);
          taken.push(job.data);
        }
        return taken;
      },
      complete: async (queue, count) => {
        const done: Array<Record<string, unknown>> = [];
        for (let i = 0; i < count; i++) {
          const [job] = await boss.fetch<Record<string, unknown>>(queue, { batchSize: 1 });
          if (!job) break;
          await boss.complete(queue, job.id);
          done.push(job.data);
        }
        return done;
      },
      makeDue: async (queue, marker) => {
        await boss.getDb().executeSql(`update pgboss.job set start_after = now() - interval '1 second' where name = $1 and data->>'marker' = $2`, [queue, marker]);
      },
      setWeight: async (tenant, weight) => new SqlTenantDeliveryLimitRepository(database).save(tenant, { weight, maxPerSecond: null }, new Date()),
    };
  });
}
