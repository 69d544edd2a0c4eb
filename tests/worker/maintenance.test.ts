import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { newOrganization } from '../../core/domain/organization.ts';
import { QUEUES } from '../../core/ports/job-queue.ts';
import { createLogger } from '../../hosts/logger.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { buildWorkerContainer, WORKER } from '../../hosts/worker/container.ts';
import { sharedInfrastructure } from '../support/shared-infrastructure.ts';
import { testConfig } from '../support/test-config.ts';

describe('Worker: maintenance job', () => {
  it('purges idempotency keys past their 24 hours and keeps the live ones', async () => {
    const container = buildWorkerContainer(testConfig(), createLogger('silent'), await sharedInfrastructure());
    const storage = container.get(INFRA.storage);
    const organizationId = randomUUID();
    const now = new Date();
    await storage.organizations.insert(newOrganization(organizationId, 'Maintenance', now));
    const dayAgo = new Date(now.getTime() - 25 * 3_600_000);
    await storage.idempotency.claim(organizationId, 'old', 'hash-old', dayAgo, new Date(dayAgo.getTime() + 24 * 3_600_000));
    await storage.idempotency.claim(organizationId, 'fresh', 'hash-fresh', now, new Date(now.getTime() + 24 * 3_600_000));
    await storage.idempotency.complete(organizationId, 'fresh', ['m-1']);

    const maintenance = container.getAll(WORKER.handlers).find((h) => h.queue === QUEUES.maintenance)!;
    await maintenance.handle({});

    const rows = await container.get(INFRA.database).em().execute<{ key: string }[]>(
      'select key from idempotency_keys where organization_id = ? order by key', [organizationId]);
    expect(rows.map((r) => r.key)).to.deep.equal(['fresh']);
    expect(await storage.idempotency.claim(organizationId, 'fresh', 'hash-fresh', now, now)).to.deep.equal({ claimed: false, requestHash: 'hash-fresh', messageIds: ['m-1'] });
  });
});
