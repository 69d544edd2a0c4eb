import { expect } from 'chai';
import { NetworkRouter } from '../../../adapters/routing/network-router.ts';
import { networkByMccMnc, networkByPrefix, needsLookup } from '../../../core/domain/mobile-network.ts';
import { networkPricingRules, orderForNetwork, type NetworkRoute } from '../../../core/domain/network-route.ts';
import { costPreview, DEFAULT_PRICING_RULES } from '../../../core/domain/pricing.ts';
import { decideRoutes, emptyBucket, latencyPercentile, DEFAULT_ROUTE_POLICY, type RouteBucket } from '../../../core/domain/route-learning.ts';
import { mtnShareOnB, simulateRouting, telecelShareOnA } from '../../bench/routing-simulation.ts';
import { InMemoryStorage } from '../../../adapters/memory/in-memory-storage.ts';
import { InMemoryRouteStatsRepository } from '../../../adapters/memory/in-memory-route-stats-repository.ts';
import { UuidV7IdGenerator } from '../../../adapters/security/uuid-v7-id-generator.ts';
import { EvaluateRoutes } from '../../../core/use-cases/routing/evaluate-routes.ts';
import { GetNetworkAnalytics } from '../../../core/use-cases/routing/get-network-analytics.ts';
import { GetAnalyticsRecommendations } from '../../../core/use-cases/analytics/get-analytics-recommendations.ts';
import { InMemoryNetworkAnalyticsRepository } from '../../../adapters/memory/in-memory-network-analytics-repository.ts';

const at = new Date('2026-11-28T08:00:00Z');
const route = (over: Partial<NetworkRoute> = {}): NetworkRoute => ({
  id: 'r1', channel: 'SMS', country: 'GH', network: 'TELECEL', providers: [], pricePerUnit: null, pinned: null, createdAt: at, updatedAt: at, ...over,
});

describe('network intelligence: prefixes', () => {
  it('places Ghanaian numbers on MTN, Telecel and AT by prefix, and others of the seven countries', () => {
    expect(networkByPrefix('+233241234567')).to.deep.equal({ country: 'GH', network: 'MTN' });
    expect(networkByPrefix('+233201234567')).to.deep.equal({ country: 'GH', network: 'TELECEL' });
    expect(networkByPrefix('+233501234567')).to.deep.equal({ country: 'GH', network: 'TELECEL' });
    expect(networkByPrefix('+233571234567')).to.deep.equal({ country: 'GH', network: 'AT' });
    expect(networkByPrefix('+2348031234567')).to.deep.equal({ country: 'NG', network: 'MTN' });
    expect(networkByPrefix('+2347025123456')).to.deep.equal({ country: 'NG', network: 'MTN' });
    expect(networkByPrefix('+254712345678')).to.deep.equal({ country: 'KE', network: 'SAFARICOM' });
    expect(networkByPrefix('+2250712345678')).to.deep.equal({ country: 'CI', network: 'ORANGE' });
    expect(networkByPrefix('+221761234567')).to.deep.equal({ country: 'SN', network: 'FREE' });
    expect(networkByPrefix('+256771234567')).to.deep.equal({ country: 'UG', network: 'MTN' });
    expect(networkByPrefix('+255741234567')).to.deep.equal({ country: 'TZ', network: 'VODACOM' });
  });

  it('answers null for a fixed line, an unplanned country and an empty string', () => {
    expect(networkByPrefix('+233302123456')).to.equal(null);
    expect(networkByPrefix('+14155550100')).to.equal(null);
    expect(networkByPrefix('')).to.equal(null);
  });

  it('reads the MCC+MNC codes vendors report', () => {
    expect(networkByMccMnc('62002')).to.deep.equal({ country: 'GH', network: 'TELECEL' });
    expect(networkByMccMnc('620-06')).to.deep.equal({ country: 'GH', network: 'AT' });
    expect(networkByMccMnc('99999')).to.equal(null);
  });

  it('asks for a paid lookup only where the organization setting says', () => {
    const prefix = { country: 'GH', network: 'MTN', source: 'prefix' as const };
    expect(needsLookup('off', null)).to.equal(false);
    expect(needsLookup('unknown', prefix)).to.equal(false);
    expect(needsLookup('unknown', null)).to.equal(true);
    expect(needsLookup('always', prefix)).to.equal(true);
    expect(needsLookup('always', { ...prefix, source: 'report' })).to.equal(false);
  });
});

describe('network routing and pricing', () => {
  it('prices a network with its route price over the country rule, others at the country rule', () => {
    const rules = [...DEFAULT_PRICING_RULES, ...networkPricingRules([route({ pricePerUnit: 2 }), route({ network: 'AT', pricePerUnit: null })])];
    expect(costPreview(rules, 'SMS', 'GH', 'hello', 'TELECEL')!.price).to.equal(2);
    expect(costPreview(rules, 'SMS', 'GH', 'hello', 'MTN')!.price).to.equal(3);
    expect(costPreview(rules, 'SMS', 'GH', 'hello', 'AT')!.price).to.equal(3);
    expect(costPreview(rules, 'SMS', 'GH', 'hello')!.price).to.equal(3);
  });

  it('orders a route\'s providers first, degraded ones last except on probes, and a pin first whatever learning says', () => {
    const names = ['a', 'b', 'c'];
    const id = (x: string) => x;
    expect(orderForNetwork(names, id, route({ providers: ['c', 'b'] }), null, false)).to.deep.equal(['c', 'b', 'a']);
    expect(orderForNetwork(names, id, null, new Set(['a']), false)).to.deep.equal(['b', 'c', 'a']);
    expect(orderForNetwork(names, id, null, new Set(['a']), true)).to.deep.equal(['a', 'b', 'c']);
    expect(orderForNetwork(names, id, route({ pinned: 'a' }), new Set(['a']), false)).to.deep.equal(['a', 'b', 'c']);
  });

  it('routes and prices a ported number (MTN prefix, now Telecel) as Telecel after one delivery report', async () => {
    const router = new NetworkRouter();
    router.setRoutes([route({ providers: ['telecel-direct'], pricePerUnit: 2 }), route({ network: 'MTN', providers: ['mtn-direct'], pricePerUnit: 4 })]);
    const ported = '+233241112233';
    const rules = [...DEFAULT_PRICING_RULES, ...networkPricingRules(router.routes())];
    const before = router.known(ported)!;
    expect(before).to.deep.equal({ country: 'GH', network: 'MTN', source: 'prefix' });
    expect(router.order(['mtn-direct', 'telecel-direct'], (x) => x, 'SMS', before)[0]).to.equal('mtn-direct');
    await router.learn(ported, networkByMccMnc('62002')!, 'report');
    const after = router.known(ported)!;
    expect(after).to.deep.equal({ country: 'GH', network: 'TELECEL', source: 'report' });
    expect(router.order(['mtn-direct', 'telecel-direct'], (x) => x, 'SMS', after)[0]).to.equal('telecel-direct');
    expect(costPreview(rules, 'SMS', 'GH', 'hi', after.network)!.price).to.equal(2);
  });

  it('trusts a lookup\'s answer for its TTL, then the prefix again; a report\'s until replaced', async () => {
    let now = Date.UTC(2026, 10, 28);
    const router = new NetworkRouter({ lookupTtlMs: 60_000, now: () => now });
    await router.learn('+233241112233', { country: 'GH', network: 'TELECEL' }, 'lookup');
    await router.learn('+233241112244', { country: 'GH', network: 'AT' }, 'report');
    expect(router.known('+233241112233')).to.include({ network: 'TELECEL', source: 'lookup' });
    now += 60_001;
    expect(router.known('+233241112233')).to.include({ network: 'MTN', source: 'prefix' });
    expect(router.known('+233241112244')).to.include({ network: 'AT', source: 'report' });
  });
});

describe('analytics per network', () => {
  it('names the better route where a provider delivered a network clearly better than the one carrying it, in both analytics answers', async () => {
    const storage = new InMemoryStorage(new UuidV7IdGenerator());
    const org = 'org-net';
    const now = new Date('2026-11-28T12:00:00Z');
    const sentAt = new Date('2026-11-27T10:00:00Z');
    let n = 0;
    const message = (provider: string, network: string, status: 'DELIVERED' | 'FAILED') => ({
      id: `m${++n}`, organizationId: org, internalMessageId: `m${n}`, channel: 'SMS' as const, recipient: '+233241234567', country: 'GH', network, subject: null, body: 'hi',
      templateId: null, category: 'TRANSACTIONAL' as const, status, scheduledAt: null, errorCode: null, errorMessage: null, cost: 3, price: 3, segments: 1, encoding: 'GSM-7' as const,
      isSandbox: false, apiKeyId: null, userId: null, senderId: null, provider, providerMessageId: null, attempts: 1, leaseUntil: null, createdAt: sentAt, updatedAt: sentAt,
      sentAt, deliveredAt: status === 'DELIVERED' ? new Date(sentAt.getTime() + 5_000) : null, failedAt: status === 'FAILED' ? sentAt : null,
    });
    const batch = [
      ...Array.from({ length: 160 }, (_, i) => message('slow-agg', 'MTN', i < 120 ? 'DELIVERED' : 'FAILED')),
      ...Array.from({ length: 60 }, (_, i) => message('good-agg', 'MTN', i < 59 ? 'DELIVERED' : 'FAILED')),
      ...Array.from({ length: 60 }, () => message('slow-agg', 'TELECEL', 'DELIVERED')),
    ];
    await storage.messages.insertMany(batch);
    const networks = new InMemoryNetworkAnalyticsRepository(storage.state);
    const analytics = await new GetNetworkAnalytics({ analytics: networks, clock: { now: () => now } }).execute({ organizationId: org }, {});
    expect(analytics.networks.map((x) => [x.network, x.messages, x.deliveryRate])).to.deep.equal([['MTN', 220, 179 / 220], ['TELECEL', 60, 1]]);
    expect(analytics.recommendations).to.have.length(1);
    expect(analytics.recommendations[0]).to.include({ kind: 'BETTER_ROUTE', network: 'MTN', from: 'slow-agg', to: 'good-agg' });
    const recommendations = await new GetAnalyticsRecommendations({ storage, pricing: storage.pricing, clock: { now: () => now }, networks }).execute({ organizationId: org });
    expect(recommendations.find((r) => r.kind === 'BETTER_NETWORK_ROUTE')).to.deep.include({ title: 'Route GH MTN through good-agg' });
  });
});

describe('routes that learn', () => {
  const bucket = (provider: string, minute: number, over: Partial<RouteBucket>): RouteBucket =>
    ({ ...emptyBucket(provider, 'GH', 'MTN', new Date(at.getTime() + minute * 60_000)), ...over });

  it('degrades a provider whose delivery rate falls more than the margin below the best peer, and not on too few reports', () => {
    const now = new Date(at.getTime() + 8 * 60_000);
    const buckets = [bucket('a', 1, { sent: 100, reported: 100, delivered: 60, failed: 40 }), bucket('b', 1, { sent: 100, reported: 100, delivered: 98, failed: 2 })];
    const { shifts } = decideRoutes(buckets, [], now);
    expect(shifts.map((s) => [s.provider, s.direction])).to.deep.equal([['a', 'away']]);
    expect(shifts[0]!.reason).to.match(/delivery rate 60%/);
    const few = [bucket('a', 1, { sent: 5, reported: 5, delivered: 1, failed: 4 }), bucket('b', 1, { sent: 100, reported: 100, delivered: 98, failed: 2 })];
    expect(decideRoutes(few, [], now).shifts).to.deep.equal([]);
  });

  it('stores each shift and records it as an admin event (route.shift) in the audit log', async () => {
    const storage = new InMemoryStorage(new UuidV7IdGenerator());
    const stats = new InMemoryRouteStatsRepository();
    const now = new Date(at.getTime() + 8 * 60_000);
    await stats.add([bucket('a', 1, { sent: 100 })]);
    const { shifts } = await new EvaluateRoutes({ routeStats: stats, clock: { now: () => now }, audit: { storage, ids: new UuidV7IdGenerator() } }).execute();
    expect(shifts.map((s) => [s.provider, s.direction])).to.deep.equal([['a', 'away']]);
    const [entry] = await storage.auditLog.list({ limit: 10 });
    expect(entry).to.include({ action: 'route.shift', actorUserId: 'system', target: 'route:a:GH:MTN' });
  });

  it('reads latency percentiles from the histogram', () => {
    expect(latencyPercentile([8, 1, 0, 0, 0, 1, 0, 0], 0.5)).to.equal(10_000);
    expect(latencyPercentile([8, 1, 0, 0, 0, 1, 0, 0], 0.95)).to.equal(600_000);
    expect(latencyPercentile([0, 0, 0, 0, 0, 0, 0, 0], 0.5)).to.equal(null);
    expect(DEFAULT_ROUTE_POLICY.degradeSlowShare).to.equal(0.15);
  });

  it('the simulation meets the bars: MTN off the late provider within 10 minutes, Telecel stays, MTN returns, nothing sent twice', async () => {
    const result = await simulateRouting({ ratePerSecond: 3, durationMs: 36 * 60_000, recoverAtMs: 20 * 60_000, slowMtnMs: 6 * 60_000, evaluateEveryMs: 30_000 });
    expect(mtnShareOnB(result, 9, 10)).to.be.at.least(0.9);
    expect(telecelShareOnA(result, 0, 36)).to.be.at.least(0.99);
    expect(result.backAtMs! - 20 * 60_000).to.be.at.most(result.hysteresisWindowMs);
    expect(result.shifts.map((s) => s.direction)).to.deep.equal(['away', 'back']);
    expect(result.duplicates).to.equal(0);
  });
});
