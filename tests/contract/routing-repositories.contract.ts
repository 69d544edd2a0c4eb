import { expect } from 'chai';
import { emptyBucket } from '../../core/domain/route-learning.ts';
import type { NetworkRouteRepository } from '../../core/ports/network-route-repository.ts';
import type { NumberNetworkRepository } from '../../core/ports/number-network-repository.ts';
import type { RouteStatsRepository } from '../../core/ports/route-stats-repository.ts';
import type { RoutingSettingsRepository } from '../../core/ports/routing-settings-repository.ts';
import type { Storage } from '../../core/ports/storage.ts';
import type { NetworkAnalyticsRepository } from '../../core/ports/network-analytics-repository.ts';
import type { RouteShiftAudience } from '../../core/ports/route-shift-audience.ts';
import { aMessage, at, seedOrganization, uniqueId } from './contract-fixtures.ts';

export interface RoutingFixture {
  storage: Storage;
  stats: RouteStatsRepository;
  routes: NetworkRouteRepository;
  numbers: NumberNetworkRepository;
  settings: RoutingSettingsRepository;
  analytics: NetworkAnalyticsRepository;
  audience: RouteShiftAudience;
}

const BASE = new Date('2026-11-28T08:00:00.000Z');
const minute = (n: number) => new Date(BASE.getTime() + n * 60_000);

/** The routing ports' contract (route stats, network routes, numbers' networks, settings), run against every adapter. */
export function describeRoutingContract(name: string, make: () => Promise<RoutingFixture>): void {
  describe(`routing repositories contract: ${name}`, () => {
    let f: RoutingFixture;
    before(async () => { f = await make(); });

    it('adds bucket counts (latency histogram included) without losing concurrent flushes, lists by time and prunes', async () => {
      const provider = uniqueId('prov');
      const inc = () => ({ ...emptyBucket(provider, 'GH', 'MTN', minute(1)), sent: 2, reported: 1, delivered: 1, slow: 1, latency: [1, 0, 0, 0, 0, 1, 0, 0] });
      await Promise.all([f.stats.add([inc()]), f.stats.add([inc()]), f.stats.add([inc(), { ...emptyBucket(provider, 'GH', 'TELECEL', minute(2)), sent: 5 }])]);
      const mine = (await f.stats.listBuckets(minute(0), 1000)).filter((b) => b.provider === provider);
      expect(mine.map((b) => [b.network, b.sent, b.reported, b.slow, b.latency])).to.deep.equal([
        ['MTN', 6, 3, 3, [3, 0, 0, 0, 0, 3, 0, 0]], ['TELECEL', 5, 0, 0, [0, 0, 0, 0, 0, 0, 0, 0]],
      ]);
      expect((await f.stats.listBuckets(minute(2), 1000)).filter((b) => b.provider === provider).map((b) => b.network)).to.deep.equal(['TELECEL']);
      await f.stats.prune(minute(2));
      expect((await f.stats.listBuckets(minute(0), 1000)).filter((b) => b.provider === provider).map((b) => b.network)).to.deep.equal(['TELECEL']);
    });

    it('replaces states and appends shifts, newest shift first', async () => {
      const provider = uniqueId('prov');
      const state = { provider, country: 'GH', network: 'MTN', degraded: true, since: minute(6), reason: 'late' };
      await f.stats.saveDecision([state], [{ provider, country: 'GH', network: 'MTN', direction: 'away', reason: 'late', slowShare: 1, deliveryRate: null, at: minute(6) }]);
      await f.stats.saveDecision([{ ...state, degraded: false, since: minute(20) }], [{ provider, country: 'GH', network: 'MTN', direction: 'back', reason: 'fast', slowShare: 0, deliveryRate: 0.99, at: minute(20) }]);
      expect((await f.stats.listStates()).filter((s) => s.provider === provider)).to.deep.equal([{ ...state, degraded: false, since: minute(20) }]);
      const shifts = (await f.stats.listShifts(100)).filter((s) => s.provider === provider);
      expect(shifts.map((s) => [s.direction, s.deliveryRate])).to.deep.equal([['back', 0.99], ['away', null]]);
      // A second evaluator storing the same shift a moment later (two workers): stored once.
      await f.stats.saveDecision([{ ...state, degraded: false, since: minute(20) }], [{ provider, country: 'GH', network: 'MTN', direction: 'back', reason: 'fast', slowShare: 0, deliveryRate: 0.99, at: new Date(minute(20).getTime() + 30_000) }]);
      expect((await f.stats.listShifts(100)).filter((s) => s.provider === provider)).to.have.length(2);
    });

    it('is the outbox of route shift webhooks: recorded and learned shifts are claimed once under a lease, again after it expires, never after publication', async () => {
      const provider = uniqueId('prov');
      await f.stats.saveDecision([], [{ provider, country: 'GH', network: 'MTN', direction: 'away', reason: 'late', slowShare: 0.5, deliveryRate: 0.9, at: minute(30) }]);
      await f.stats.recordShift({ provider, country: 'GH', network: 'TELECEL', channel: 'SMS', direction: 'pinned', reason: 'pinned', slowShare: 0, deliveryRate: null, at: minute(31) });
      const mine = <T extends { provider: string }>(list: T[]): T[] => list.filter((s) => s.provider === provider);
      const claimed = mine(await f.stats.claimUnpublished(minute(32), minute(34), 1000));
      expect(claimed.map((s) => [s.network, s.direction, s.channel ?? null])).to.deep.equal([['MTN', 'away', null], ['TELECEL', 'pinned', 'SMS']]);
      expect(claimed[0]!.id).to.be.a('string');
      expect(mine(await f.stats.claimUnpublished(minute(33), minute(35), 1000))).to.deep.equal([]); // leased
      await f.stats.markPublished(claimed[0]!.id, minute(33));
      expect(mine(await f.stats.claimUnpublished(minute(34), minute(36), 1000)).map((s) => s.network)).to.deep.equal(['TELECEL']); // lease expired, the other published
      await f.stats.markPublished(claimed[1]!.id, minute(34));
      expect(mine(await f.stats.claimUnpublished(minute(90), minute(91), 1000))).to.deep.equal([]);
      expect(mine(await f.stats.listShifts(100)).length).to.equal(2);
    });

    it('finds the organizations with live traffic to a network through given providers since a time, in pages, never sandbox or other providers', async () => {
      const [a, b, c, d] = [await seedOrganization(f.storage), await seedOrganization(f.storage), await seedOrganization(f.storage), await seedOrganization(f.storage)].map((o) => o.id).sort();
      const p = uniqueId('p');
      const recent = new Date();
      await f.storage.messages.insertMany([
        aMessage(a!, { network: 'MTN', provider: p, createdAt: recent }), aMessage(a!, { network: 'MTN', provider: p, createdAt: recent }),
        aMessage(b!, { network: 'MTN', provider: p, createdAt: recent }),
        aMessage(c!, { network: 'MTN', provider: p, createdAt: recent, isSandbox: true }), aMessage(c!, { network: 'TELECEL', provider: p, createdAt: recent }),
        aMessage(c!, { network: 'MTN', provider: 'own-account', createdAt: recent }),
        aMessage(d!, { network: 'MTN', provider: p, createdAt: new Date(recent.getTime() - 3 * 24 * 3600_000) }),
      ]);
      const query = { country: 'GH', network: 'MTN', providers: [p], since: new Date(recent.getTime() - 24 * 3600_000) };
      expect(await f.audience.organizationsReaching(query, null, 10)).to.deep.equal([a, b]);
      expect(await f.audience.organizationsReaching(query, null, 1)).to.deep.equal([a]);
      expect(await f.audience.organizationsReaching(query, a!, 10)).to.deep.equal([b]);
      expect(await f.audience.organizationsReaching({ ...query, providers: [] }, null, 10)).to.deep.equal([]);
    });

    it('holds one paid-lookup claim per number until it expires or is released', async () => {
      const e164 = `+23320${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
      const org = uniqueId('org');
      expect(await f.numbers.claimLookup(e164, org, minute(0), minute(1))).to.equal(true);
      expect(await f.numbers.claimLookup(e164, org, minute(0), minute(1))).to.equal(false);
      await f.numbers.settleLookup(e164, minute(100));
      expect(await f.numbers.claimLookup(e164, org, minute(50), minute(51))).to.equal(false);
      expect(await f.numbers.claimLookup(e164, org, minute(100), minute(101))).to.equal(true); // the TTL is over
      await f.numbers.releaseLookup(e164);
      const together = await Promise.all([1, 2, 3].map(() => f.numbers.claimLookup(e164, org, minute(100), minute(101))));
      expect(together.filter(Boolean)).to.have.length(1);
    });

    it('saves one network route per (channel, country, network), keeping the first id, and removes it', async () => {
      const network = uniqueId('NET').toUpperCase().slice(0, 20);
      const first = await f.routes.save({ id: uniqueId('r'), channel: 'SMS', country: 'GH', network, providers: ['a', 'b'], pricePerUnit: 2, pinned: null, createdAt: minute(0), updatedAt: minute(0) });
      const second = await f.routes.save({ id: uniqueId('r'), channel: 'SMS', country: 'GH', network, providers: ['b'], pricePerUnit: null, pinned: 'b', createdAt: minute(1), updatedAt: minute(1) });
      expect(second.id).to.equal(first.id);
      expect(await f.routes.find('SMS', 'GH', network)).to.deep.include({ providers: ['b'], pricePerUnit: null, pinned: 'b' });
      expect((await f.routes.list()).filter((r) => r.network === network)).to.have.length(1);
      expect(await f.routes.remove(first.id)).to.equal(true);
      expect(await f.routes.findById(first.id)).to.equal(null);
    });

    it('keeps a number\'s latest network, hides an expired lookup and lists what changed since', async () => {
      const e164 = `+23324${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
      await f.numbers.save({ e164, country: 'GH', network: 'TELECEL', source: 'lookup', learnedAt: minute(1), expiresAt: minute(10) });
      expect(await f.numbers.find(e164, minute(5))).to.deep.include({ network: 'TELECEL', source: 'lookup' });
      expect(await f.numbers.find(e164, minute(11))).to.equal(null);
      await f.numbers.save({ e164, country: 'GH', network: 'AT', source: 'report', learnedAt: minute(12), expiresAt: null });
      expect(await f.numbers.find(e164, minute(500))).to.deep.include({ network: 'AT', source: 'report' });
      expect((await f.numbers.changedSince(minute(11), 1000)).filter((n) => n.e164 === e164).map((n) => n.network)).to.deep.equal(['AT']);
    });

    it('sums an organization\'s live messages per (country, network, provider) with delivered latency percentiles, never another organization\'s', async () => {
      const org = (await seedOrganization(f.storage)).id;
      const other = (await seedOrganization(f.storage)).id;
      const delivered = (seconds: number) => ({ status: 'DELIVERED' as const, sentAt: at(10), deliveredAt: at(10 + seconds) });
      await f.storage.messages.insertMany([
        aMessage(org, { network: 'MTN', provider: 'a', cost: 3, ...delivered(2) }), aMessage(org, { network: 'MTN', provider: 'a', cost: 3, ...delivered(4) }),
        aMessage(org, { network: 'MTN', provider: 'a', cost: 0, status: 'FAILED', failedAt: at(20) }),
        aMessage(org, { network: 'TELECEL', provider: 'b', cost: 2, ...delivered(1) }),
        aMessage(org, { network: 'TELECEL', provider: 'b', cost: 0, isSandbox: true }), aMessage(org, { network: null, provider: 'b' }),
        aMessage(other, { network: 'MTN', provider: 'a', cost: 3, ...delivered(1) }),
      ]);
      const rows = await f.analytics.byNetwork(org, at(-60), at(3600));
      expect(rows.map((r) => [r.network, r.provider, r.messages, r.delivered, r.failed, r.cost, r.latencyP50Ms])).to.deep.equal([
        ['MTN', 'a', 3, 2, 1, 6, 3000], ['TELECEL', 'b', 1, 1, 0, 2, 1000],
      ]);
      expect(rows[0]!.latencyP95Ms).to.be.within(3800, 4000);
      expect(await f.analytics.byNetwork(org, at(3600), at(7200))).to.deep.equal([]);
    });

    it('answers off for an organization without settings, and each organization its own mode', async () => {
      const a = (await seedOrganization(f.storage)).id;
      const b = (await seedOrganization(f.storage)).id;
      expect(await f.settings.lookupMode(a)).to.equal('off');
      await f.settings.setLookupMode(a, 'always', minute(0));
      await f.settings.setLookupMode(a, 'unknown', minute(1));
      expect(await f.settings.lookupMode(a)).to.equal('unknown');
      expect(await f.settings.lookupMode(b)).to.equal('off');
    });
  });
}
