import { expect } from 'chai';
import { InMemoryRouteShiftAudience } from '../../../adapters/memory/in-memory-route-shift-audience.ts';
import { InMemoryRouteStatsRepository } from '../../../adapters/memory/in-memory-route-stats-repository.ts';
import { newOrganization } from '../../../core/domain/organization.ts';
import type { ProviderConfig } from '../../../core/domain/provider.ts';
import type { Message } from '../../../core/domain/message.ts';
import { QUEUES } from '../../../core/ports/job-queue.ts';
import { DeleteNetworkRoute } from '../../../core/use-cases/routing/delete-network-route.ts';
import { PublishRouteShifts, routeShiftEventId } from '../../../core/use-cases/routing/publish-route-shifts.ts';
import { SaveNetworkRoute } from '../../../core/use-cases/routing/save-network-route.ts';
import { InMemoryNetworkRouteRepository } from '../../../adapters/memory/in-memory-routing-repositories.ts';
import { buildCore } from '../../support/build-core.ts';

const provider = (name: string, organizationId: string | null = null, channel: ProviderConfig['channel'] = 'SMS'): ProviderConfig => ({
  id: name, name, vendor: 'test', channel, priority: 1, active: true, settings: {}, countries: ['GH'], hasCredentials: false, organizationId,
  platformFallback: true, createdAt: new Date(0), updatedAt: new Date(0),
});

async function world() {
  const core = buildCore();
  const now = core.clock.now();
  const orgs: string[] = [];
  for (const name of ['Affected', 'Telecel only', 'Own account', 'Sandbox', 'Long ago']) {
    const id = core.ids.next();
    await core.storage.organizations.insert(newOrganization(id, name, now));
    orgs.push(id);
  }
  const [affected, telecelOnly, ownAccount, sandbox, longAgo] = orgs as [string, string, string, string, string];
  const message = (organizationId: string, over: Partial<Message>): Message => {
    const id = core.ids.next();
    return {
      id, organizationId, internalMessageId: id, channel: 'SMS', recipient: '+233241234567', country: 'GH', network: 'MTN', subject: null, body: 'hi', templateId: null,
      category: 'TRANSACTIONAL', scheduledAt: null, status: 'DELIVERED', errorCode: null, errorMessage: null, cost: 3, price: 3, segments: 1, encoding: 'GSM-7',
      isSandbox: false, apiKeyId: null, userId: null, senderId: null, provider: 'a', providerMessageId: null, attempts: 1, leaseUntil: null,
      createdAt: now, updatedAt: now, sentAt: now, deliveredAt: now, failedAt: null, ...over,
    };
  };
  await core.storage.messages.insertMany([
    message(affected, {}), message(affected, { provider: 'b' }),
    message(telecelOnly, { network: 'TELECEL' }),
    message(ownAccount, { provider: 'own-c' }),
    message(sandbox, { isSandbox: true }),
    message(longAgo, { createdAt: new Date(now.getTime() - 2 * 24 * 3600_000) }),
  ]);
  const routeStats = new InMemoryRouteStatsRepository();
  const providers = { list: async () => [provider('a'), provider('b'), provider('own-c', ownAccount), provider('mail', null, 'EMAIL')] };
  const publisher = () => new PublishRouteShifts({
    routeStats, audience: new InMemoryRouteShiftAudience(core.storage.state), storage: core.storage, providers, clock: core.clock, secrets: core.secrets,
    order: () => ['a', 'b'],
  });
  const events = async (organizationId: string) => (await core.storage.outboundEvents.listRecent(organizationId, 100)).filter((e) => e.kind === 'routing.route_shifted');
  return { core, routeStats, providers, publisher, events, affected, telecelOnly, ownAccount, sandbox, longAgo };
}

describe('route shifts as routing.route_shifted webhook events', () => {
  it('publishes a learned shift once to each organization with live platform traffic to the network in the last 24 h, with its dispatch job', async () => {
    const w = await world();
    const at = w.core.clock.now();
    await w.routeStats.saveDecision([], [{ provider: 'a', country: 'GH', network: 'MTN', direction: 'away', reason: 'slow share 40.0% >= 15.0%', slowShare: 0.4, deliveryRate: 0.97, at }]);
    // Two workers at once, then again: one event per organization.
    const runs = await Promise.all([w.publisher().execute(), w.publisher().execute()]);
    expect(runs.reduce((n, r) => n + r.events, 0)).to.equal(1);
    expect(await w.publisher().execute()).to.deep.equal({ shifts: 0, events: 0 });
    const [event] = await w.events(w.affected);
    expect(event!.data).to.deep.equal({
      shiftId: '1', channel: 'SMS', country: 'GH', network: 'MTN', direction: 'away', from: 'a', to: 'b',
      reason: 'slow share 40.0% >= 15.0%', figures: { slowShare: 0.4, deliveryRate: 0.97 }, at: at.toISOString(),
    });
    expect(event!.occurredAt).to.deep.equal(at);
    for (const org of [w.telecelOnly, w.ownAccount, w.sandbox, w.longAgo]) expect(await w.events(org)).to.deep.equal([]);
    const jobs = w.core.storage.state.jobs.filter((j) => j.queue === QUEUES.webhookDispatch);
    expect(jobs.map((j) => j.data)).to.deep.equal([{ eventId: event!.id, organizationId: w.affected }]);
    // A UUIDv7 of the shift's time (the outbox is partitioned by month of the id).
    expect(event!.id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(event!.id.slice(0, 13).replace('-', '')).to.equal(at.getTime().toString(16).padStart(12, '0'));
  });

  it('resumes a publisher that died before marking the shift: the lease expires and nothing is published twice', async () => {
    const w = await world();
    const at = w.core.clock.now();
    await w.routeStats.saveDecision([], [{ provider: 'a', country: 'GH', network: 'MTN', direction: 'back', reason: 'recovered', slowShare: 0.01, deliveryRate: 0.99, at }]);
    const [shift] = await w.routeStats.claimUnpublished(at, new Date(at.getTime() + 120_000), 10);
    // The dead publisher recorded the event, then stopped.
    await w.core.storage.outboundEvents.record({ id: routeShiftEventId(w.core.secrets, shift!, w.affected), organizationId: w.affected, kind: 'routing.route_shifted', data: {}, occurredAt: at });
    expect(await w.publisher().execute()).to.deep.equal({ shifts: 0, events: 0 }); // still leased
    w.core.clock.advance(121_000);
    expect(await w.publisher().execute()).to.deep.equal({ shifts: 1, events: 0 });
    expect(await w.events(w.affected)).to.have.length(1);
  });

  it('records an administrator\'s pin and its lifting as shifts, announced as pinned (from the current first, to the pin) and unpinned', async () => {
    const w = await world();
    const routes = new InMemoryNetworkRouteRepository();
    const deps = { storage: w.core.storage, routes, routeStats: w.routeStats, providers: w.providers, clock: w.core.clock, ids: w.core.ids };
    const admin = { userId: 'admin', platformRole: 'PLATFORM_SUPER_ADMIN' } as never;
    const saved = await new SaveNetworkRoute(deps).execute(admin, { channel: 'SMS', country: 'GH', network: 'MTN', providers: ['a'], pinned: 'b' });
    await new SaveNetworkRoute(deps).execute(admin, { channel: 'SMS', country: 'GH', network: 'MTN', providers: ['a'], pinned: 'b', pricePerUnit: 0.03 }); // same pin: no shift
    await new DeleteNetworkRoute(deps).execute(admin, saved.id);
    expect((await w.routeStats.listShifts(10)).map((s) => [s.direction, s.provider, s.channel])).to.deep.equal([['unpinned', 'b', 'SMS'], ['pinned', 'b', 'SMS']]);
    expect(await w.publisher().execute()).to.deep.equal({ shifts: 2, events: 2 });
    const data = (await w.events(w.affected)).map((e) => [e.data['direction'], e.data['from'], e.data['to']]);
    expect(data).to.have.deep.members([['pinned', 'a', 'b'], ['unpinned', 'b', 'a']]);
  });
});
