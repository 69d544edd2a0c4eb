import { expect } from 'chai';
import type { WebhookDelivery, WebhookEndpoint } from '../../core/domain/webhook.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { at, seedOrganization, uniqueId } from './contract-fixtures.ts';

function anEndpoint(organizationId: string, overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  return {
    id: uniqueId('wh'), organizationId, url: 'https://hooks.example.com/nkra', events: [], isActive: true, secretCiphertext: 'v1.iv.tag.data',
    previousSecretCiphertext: null, previousSecretExpiresAt: null, disabledReason: null, failingSince: null, createdAt: at(0), updatedAt: at(0), ...overrides,
  };
}

function aDelivery(endpoint: WebhookEndpoint, overrides: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    id: uniqueId('whd'), organizationId: endpoint.organizationId, endpointId: endpoint.id, eventId: uniqueId('evt'), kind: 'contact.opted_out',
    status: 'PENDING', attempts: 0, responseCode: null, lastError: null, nextAttemptAt: at(0), lastAttemptAt: null, createdAt: at(0), updatedAt: at(0), ...overrides,
  };
}

/** WebhookEndpointRepository and WebhookDeliveryRepository contracts, run against every Storage. */
export function describeWebhookRepositoriesContract(name: string, makeStorage: () => Promise<Storage>): void {
  describe(`WebhookEndpoint and WebhookDelivery repositories contract: ${name}`, () => {
    let storage: Storage;
    before(async () => { storage = await makeStorage(); });

    it('never passes the active endpoints limit: of 30 concurrent inserts exactly the limit land; inactive ones and re-activations count right', async () => {
      const a = await seedOrganization(storage); const b = await seedOrganization(storage);
      const written = await Promise.all(Array.from({ length: 30 }, () => storage.webhookEndpoints.writeWithinLimit(anEndpoint(a.id), 'insert', 10)));
      expect(written.filter((w) => w === 'WRITTEN')).to.have.length(10);
      expect(written.filter((w) => w === 'LIMIT')).to.have.length(20);
      expect(await storage.webhookEndpoints.list(a.id, 100)).to.have.length(10);
      const dormant = anEndpoint(a.id, { isActive: false });
      expect(await storage.webhookEndpoints.writeWithinLimit(dormant, 'insert', 10)).to.equal('WRITTEN'); // an inactive one does not count
      expect(await storage.webhookEndpoints.writeWithinLimit({ ...dormant, isActive: true }, 'save', 10)).to.equal('LIMIT');
      expect(await storage.webhookEndpoints.writeWithinLimit({ ...dormant, isActive: true }, 'save', 11)).to.equal('WRITTEN');
      expect(await storage.webhookEndpoints.writeWithinLimit({ ...dormant, organizationId: b.id }, 'save', 11)).to.equal('NOT_FOUND');
      expect(await storage.webhookEndpoints.writeWithinLimit(anEndpoint(b.id), 'insert', 1)).to.equal('WRITTEN');
    });

    it('stores endpoints per organization, lists newest first and saves changes only within the organization', async () => {
      const a = await seedOrganization(storage); const b = await seedOrganization(storage);
      const older = anEndpoint(a.id, { events: ['contact.opted_out', 'campaign.completed'] });
      const newer = anEndpoint(a.id, { createdAt: at(5), updatedAt: at(5), previousSecretCiphertext: 'old', previousSecretExpiresAt: at(99), failingSince: at(3) });
      await storage.webhookEndpoints.insert(older); await storage.webhookEndpoints.insert(newer);
      expect(await storage.webhookEndpoints.find(a.id, older.id)).to.deep.equal(older);
      expect(await storage.webhookEndpoints.find(b.id, older.id)).to.equal(null);
      expect(await storage.webhookEndpoints.list(a.id, 10)).to.deep.equal([newer, older]);
      expect(await storage.webhookEndpoints.list(a.id, 1)).to.deep.equal([newer]);
      expect(await storage.webhookEndpoints.list(b.id, 10)).to.deep.equal([]);
      const changed = { ...older, isActive: false, disabledReason: 'GONE', url: 'https://other.example/x', updatedAt: at(9) };
      expect(await storage.webhookEndpoints.save({ ...changed, organizationId: b.id })).to.equal(false);
      expect(await storage.webhookEndpoints.save(changed)).to.equal(true);
      expect(await storage.webhookEndpoints.find(a.id, older.id)).to.deep.equal(changed);
    });

    it('tells whether an active endpoint subscribes to a kind: listing it or listing nothing', async () => {
      const a = await seedOrganization(storage); const b = await seedOrganization(storage);
      const all = anEndpoint(a.id);
      const optOuts = anEndpoint(a.id, { events: ['contact.opted_out'], createdAt: at(1) });
      const inactive = anEndpoint(a.id, { isActive: false });
      for (const e of [all, optOuts, inactive]) await storage.webhookEndpoints.insert(e);
      expect(await storage.webhookEndpoints.hasSubscribers(a.id, 'message.status.updated')).to.equal(true);
      expect(await storage.webhookEndpoints.hasSubscribers(b.id, 'message.status.updated')).to.equal(false);
      await storage.webhookEndpoints.save({ ...all, isActive: false });
      expect(await storage.webhookEndpoints.hasSubscribers(a.id, 'message.status.updated')).to.equal(false);
      expect(await storage.webhookEndpoints.hasSubscribers(a.id, 'contact.opted_out')).to.equal(true);
      expect(await storage.webhookEndpoints.hasSubscribers(a.id, 'campaign.completed')).to.equal(false);
    });

    it('keeps one delivery per endpoint and event, scoped to the organization, newest first', async () => {
      const a = await seedOrganization(storage); const b = await seedOrganization(storage);
      const endpoint = anEndpoint(a.id);
      await storage.webhookEndpoints.insert(endpoint);
      const first = aDelivery(endpoint);
      const second = aDelivery(endpoint, { createdAt: at(2), updatedAt: at(2) });
      expect(await storage.webhookDeliveries.insertIfAbsent(first)).to.equal(true);
      expect(await storage.webhookDeliveries.insertIfAbsent({ ...first, id: uniqueId('whd') })).to.equal(false);
      expect(await storage.webhookDeliveries.insertIfAbsent(second)).to.equal(true);
      expect(await storage.webhookDeliveries.find(a.id, first.id)).to.deep.equal(first);
      expect(await storage.webhookDeliveries.find(b.id, first.id)).to.equal(null);
      expect((await storage.webhookDeliveries.listByEndpoint(a.id, endpoint.id, 10)).map((d) => d.id)).to.deep.equal([second.id, first.id]);
      expect(await storage.webhookDeliveries.listByEndpoint(b.id, endpoint.id, 10)).to.deep.equal([]);
      const done = { ...first, status: 'SUCCEEDED' as const, attempts: 2, responseCode: 204, lastError: null, nextAttemptAt: null, lastAttemptAt: at(7), updatedAt: at(7) };
      expect(await storage.webhookDeliveries.save({ ...done, organizationId: b.id })).to.equal(false);
      expect(await storage.webhookDeliveries.save(done)).to.equal(true);
      expect(await storage.webhookDeliveries.find(a.id, first.id)).to.deep.equal(done);
    });

    it('finds many endpoints and deliveries in one call, each only within the organization its key names', async () => {
      const a = await seedOrganization(storage); const b = await seedOrganization(storage);
      const one = anEndpoint(a.id); const two = anEndpoint(a.id, { isActive: false }); const theirs = anEndpoint(b.id);
      for (const e of [one, two, theirs]) await storage.webhookEndpoints.insert(e);
      const byId = <T extends { id: string }>(list: T[]) => list.sort((x, y) => x.id.localeCompare(y.id));
      expect(byId(await storage.webhookEndpoints.findMany([
        { organizationId: a.id, id: one.id }, { organizationId: a.id, id: two.id }, { organizationId: a.id, id: one.id },
        { organizationId: a.id, id: theirs.id }, { organizationId: b.id, id: one.id }, { organizationId: a.id, id: uniqueId('wh') },
      ]))).to.deep.equal(byId([one, two]));
      const mine = aDelivery(one); const other = aDelivery(theirs);
      await storage.webhookDeliveries.insertOrFindMany([mine, other]);
      expect(await storage.webhookDeliveries.findMany([
        { organizationId: a.id, id: mine.id }, { organizationId: a.id, id: mine.id }, { organizationId: a.id, id: other.id }, { organizationId: b.id, id: mine.id },
      ])).to.deep.equal([mine]);
      expect(await storage.webhookEndpoints.findMany([])).to.deep.equal([]);
      expect(await storage.webhookDeliveries.findMany([])).to.deep.equal([]);
    });

    it('lists the active endpoints of several organizations at once, oldest first', async () => {
      const a = await seedOrganization(storage); const b = await seedOrganization(storage); const c = await seedOrganization(storage);
      const aNewer = anEndpoint(a.id, { createdAt: at(2), events: ['campaign.completed'] });
      const aOlder = anEndpoint(a.id, { createdAt: at(1) });
      const aInactive = anEndpoint(a.id, { isActive: false });
      const bOne = anEndpoint(b.id, { createdAt: at(3) });
      const cOne = anEndpoint(c.id);
      for (const e of [aNewer, aOlder, aInactive, bOne, cOne]) await storage.webhookEndpoints.insert(e);
      expect(await storage.webhookEndpoints.listActive([a.id, b.id, a.id])).to.deep.equal([aOlder, aNewer, bOne]);
      expect(await storage.webhookEndpoints.listActive([])).to.deep.equal([]);
    });

    it('inserts a fan-out in one call and returns the stored delivery of each pair, new or existing', async () => {
      const a = await seedOrganization(storage); const b = await seedOrganization(storage);
      const one = anEndpoint(a.id); const two = anEndpoint(a.id);
      await storage.webhookEndpoints.insert(one); await storage.webhookEndpoints.insert(two);
      const existing = aDelivery(one, { status: 'SUCCEEDED', attempts: 1, responseCode: 204, lastAttemptAt: at(1), nextAttemptAt: null, updatedAt: at(1) });
      await storage.webhookDeliveries.insertIfAbsent(existing);
      const again = aDelivery(one, { eventId: existing.eventId });
      const fresh = aDelivery(two, { eventId: existing.eventId, responseCode: null, lastError: null });
      const freshTwin = { ...fresh, id: uniqueId('whd') };
      const stored = await storage.webhookDeliveries.insertOrFindMany([again, fresh, freshTwin]);
      expect(stored.sort((x, y) => x.endpointId === one.id ? -1 : y.endpointId === one.id ? 1 : 0)).to.deep.equal([existing, fresh]);
      expect(await storage.webhookDeliveries.find(a.id, again.id)).to.equal(null);
      expect(await storage.webhookDeliveries.find(a.id, fresh.id)).to.deep.equal(fresh);
      // Another organization's claim on the pair neither sees nor changes the existing delivery.
      expect(await storage.webhookDeliveries.insertOrFindMany([{ ...again, id: uniqueId('whd'), organizationId: b.id }])).to.deep.equal([]);
      expect(await storage.webhookDeliveries.find(a.id, existing.id)).to.deep.equal(existing);
      expect(await storage.webhookDeliveries.insertOrFindMany([])).to.deep.equal([]);
    });

    it('saves many deliveries in one call, each only within its organization', async () => {
      const a = await seedOrganization(storage); const b = await seedOrganization(storage);
      const endpoint = anEndpoint(a.id);
      await storage.webhookEndpoints.insert(endpoint);
      const first = aDelivery(endpoint); const second = aDelivery(endpoint);
      await storage.webhookDeliveries.insertOrFindMany([first, second]);
      const done = { ...first, status: 'SUCCEEDED' as const, attempts: 1, responseCode: 200, nextAttemptAt: null, lastAttemptAt: at(4), updatedAt: at(4) };
      const retrying = { ...second, attempts: 1, responseCode: null, lastError: 'timed out after 10000 ms', nextAttemptAt: at(9), lastAttemptAt: at(4), updatedAt: at(4) };
      expect(await storage.webhookDeliveries.saveMany([done, { ...retrying, organizationId: b.id }])).to.equal(1);
      expect(await storage.webhookDeliveries.find(a.id, second.id)).to.deep.equal(second);
      expect(await storage.webhookDeliveries.saveMany([done, retrying])).to.equal(2);
      expect(await storage.webhookDeliveries.find(a.id, first.id)).to.deep.equal(done);
      expect(await storage.webhookDeliveries.find(a.id, second.id)).to.deep.equal(retrying);
      expect(await storage.webhookDeliveries.saveMany([])).to.equal(0);
    });

    it('rolls a fan-out back with its transaction', async () => {
      const a = await seedOrganization(storage);
      const endpoint = anEndpoint(a.id);
      await storage.webhookEndpoints.insert(endpoint);
      const delivery = aDelivery(endpoint);
      await storage.transaction(async (tx) => { await tx.webhookDeliveries.insertOrFindMany([delivery]); throw new Error('boom'); }).catch(() => undefined);
      expect(await storage.webhookDeliveries.find(a.id, delivery.id)).to.equal(null);
    });

    it('rolls deliveries back with their transaction', async () => {
      const a = await seedOrganization(storage);
      const endpoint = anEndpoint(a.id);
      await storage.webhookEndpoints.insert(endpoint);
      const delivery = aDelivery(endpoint);
      await storage.transaction(async (tx) => { await tx.webhookDeliveries.insertIfAbsent(delivery); throw new Error('boom'); }).catch(() => undefined);
      expect(await storage.webhookDeliveries.find(a.id, delivery.id)).to.equal(null);
    });
  });
}
