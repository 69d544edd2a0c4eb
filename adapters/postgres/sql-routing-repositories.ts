import type { Channel } from '../../core/domain/channel.ts';
import type { LookupMode, NetworkSource } from '../../core/domain/mobile-network.ts';
import type { NetworkRoute } from '../../core/domain/network-route.ts';
import type { RouteBucket, RouteShift, RouteState } from '../../core/domain/route-learning.ts';
import type { NetworkRouteRepository } from '../../core/ports/network-route-repository.ts';
import type { NumberNetworkRepository, StoredNumberNetwork } from '../../core/ports/number-network-repository.ts';
import type { RouteStatsRepository, StoredRouteShift } from '../../core/ports/route-stats-repository.ts';
import type { RoutingSettingsRepository } from '../../core/ports/routing-settings-repository.ts';
import { MAX_NETWORK_FIGURES, type NetworkAnalyticsRepository, type NetworkFigures } from '../../core/ports/network-analytics-repository.ts';
import type { Database } from './database.ts';
import { sqlRows, toDate } from './sql-rows.ts';

type Num = number | string;

/** `route_buckets`, `route_states`, `route_shifts` (migration 0060): counts merged by upsert, so concurrent flushes never lose any. */
export class SqlRouteStatsRepository implements RouteStatsRepository {
  readonly #database: Database;
  constructor(database: Database) { this.#database = database; }

  async add(increments: readonly RouteBucket[]): Promise<void> {
    if (increments.length === 0) return;
    const rows = increments.map((b) => ({ provider: b.provider, country: b.country, network: b.network, bucket_start: b.start.toISOString(),
      sent: b.sent, reported: b.reported, delivered: b.delivered, failed: b.failed, slow: b.slow, latency: b.latency }));
    // Sorted so two flushes lock rows in the same order.
    rows.sort((a, b) => (`${a.provider}|${a.country}|${a.network}|${a.bucket_start}` < `${b.provider}|${b.country}|${b.network}|${b.bucket_start}` ? -1 : 1));
    await sqlRows(this.#database.em(), `insert into route_buckets as t (provider, country, network, bucket_start, sent, reported, delivered, failed, slow, latency)
      select r.provider, r.country, r.network, r.bucket_start, r.sent, r.reported, r.delivered, r.failed, r.slow, array(select jsonb_array_elements_text(r.latency)::int)
      from jsonb_to_recordset($1::jsonb) as r(provider text, country text, network text, bucket_start timestamptz, sent int, reported int, delivered int, failed int, slow int, latency jsonb)
      on conflict (provider, country, network, bucket_start) do update set sent = t.sent + excluded.sent, reported = t.reported + excluded.reported,
        delivered = t.delivered + excluded.delivered, failed = t.failed + excluded.failed, slow = t.slow + excluded.slow,
        latency = array(select coalesce(a, 0) + coalesce(b, 0) from unnest(t.latency, excluded.latency) as u(a, b))`, [JSON.stringify(rows)]);
  }

  async listBuckets(since: Date, limit: number): Promise<RouteBucket[]> {
    const rows = await sqlRows<{ provider: string; country: string; network: string; bucket_start: Date | string; sent: Num; reported: Num; delivered: Num; failed: Num; slow: Num; latency: Num[] }>(
      this.#database.em(), `select * from route_buckets where bucket_start >= $1 order by bucket_start, provider, country, network limit $2`, [since, limit]);
    return rows.map((r) => ({ provider: r.provider, country: r.country, network: r.network, start: toDate(r.bucket_start)!, sent: Number(r.sent), reported: Number(r.reported),
      delivered: Number(r.delivered), failed: Number(r.failed), slow: Number(r.slow), latency: r.latency.map(Number) }));
  }

  async listStates(): Promise<RouteState[]> {
    const rows = await sqlRows<{ provider: string; country: string; network: string; degraded: boolean; since: Date | string; reason: string | null }>(
      this.#database.em(), 'select * from route_states order by provider, country, network limit 10000', []);
    return rows.map((r) => ({ provider: r.provider, country: r.country, network: r.network, degraded: r.degraded, since: toDate(r.since)!, reason: r.reason }));
  }

  async saveDecision(states: readonly RouteState[], shifts: readonly RouteShift[]): Promise<void> {
    await this.#database.em().transactional(async (em) => {
      // Two workers evaluating at once take turns, and a shift the other just stored is not stored twice.
      await sqlRows(em, `select pg_advisory_xact_lock(hashtext('nkra.route_states'))`, []);
      await sqlRows(em, 'delete from route_states', []);
      if (states.length > 0) {
        await sqlRows(em, `insert into route_states (provider, country, network, degraded, since, reason)
          select * from jsonb_to_recordset($1::jsonb) as r(provider text, country text, network text, degraded boolean, since timestamptz, reason text)`, [JSON.stringify(states)]);
      }
      if (shifts.length > 0) {
        await sqlRows(em, `insert into route_shifts (provider, country, network, direction, reason, slow_share, delivery_rate, at)
          select provider, country, network, direction, reason, "slowShare", "deliveryRate", at
          from jsonb_to_recordset($1::jsonb) as r(provider text, country text, network text, direction text, reason text, "slowShare" double precision, "deliveryRate" double precision, at timestamptz)
          where not exists (select 1 from route_shifts s where s.provider = r.provider and s.country = r.country and s.network = r.network
            and s.direction = r.direction and s.at > r.at - interval '2 minutes' and s.at <= r.at + interval '2 minutes')`,
        [JSON.stringify(shifts)]);
      }
    });
  }

  async listShifts(limit: number): Promise<RouteShift[]> {
    const rows = await sqlRows<ShiftRow>(this.#database.em(), 'select * from route_shifts order by at desc, id desc limit $1', [limit]);
    return rows.map((r) => { const { id: _id, ...shift } = toShift(r); return shift; });
  }

  async recordShift(shift: RouteShift): Promise<void> {
    await sqlRows(this.#database.em(), `insert into route_shifts (provider, country, network, direction, reason, slow_share, delivery_rate, at, channel)
      values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, [shift.provider, shift.country, shift.network, shift.direction, shift.reason, shift.slowShare, shift.deliveryRate, shift.at, shift.channel ?? null]);
  }

  async claimUnpublished(now: Date, leaseUntil: Date, limit: number): Promise<StoredRouteShift[]> {
    // skip locked: two workers claiming at once take different shifts.
    const rows = await sqlRows<ShiftRow>(this.#database.em(), `update route_shifts set publishing_until = $2 where id in (
        select id from route_shifts where published_at is null and (publishing_until is null or publishing_until <= $1) order by id limit $3 for update skip locked)
      returning *`, [now, leaseUntil, limit]);
    return rows.map(toShift).sort((a, b) => Number(a.id) - Number(b.id));
  }

  async markPublished(id: string, now: Date): Promise<void> {
    await sqlRows(this.#database.em(), 'update route_shifts set published_at = $2, publishing_until = null where id = $1', [id, now]);
  }

  async prune(before: Date): Promise<number> {
    return (await sqlRows(this.#database.em(), 'delete from route_buckets where bucket_start < $1 returning 1', [before])).length;
  }
}

interface ShiftRow { id: Num; provider: string; country: string; network: string; direction: RouteShift['direction']; reason: string; slow_share: Num; delivery_rate: Num | null; at: Date | string; channel: string | null }

const toShift = (r: ShiftRow): StoredRouteShift => ({ id: String(r.id), provider: r.provider, country: r.country, network: r.network, direction: r.direction, reason: r.reason,
  slowShare: Number(r.slow_share), deliveryRate: r.delivery_rate === null ? null : Number(r.delivery_rate), at: toDate(r.at)!, ...(r.channel ? { channel: r.channel } : {}) });

interface RouteRow { id: string; channel: string; country: string; network: string; providers: string[] | string; price_per_unit: Num | null; pinned: string | null; created_at: Date | string; updated_at: Date | string }

const toRoute = (r: RouteRow): NetworkRoute => ({
  id: r.id, channel: r.channel as Channel, country: r.country, network: r.network, providers: typeof r.providers === 'string' ? JSON.parse(r.providers) as string[] : r.providers,
  pricePerUnit: r.price_per_unit === null ? null : Number(r.price_per_unit), pinned: r.pinned, createdAt: toDate(r.created_at)!, updatedAt: toDate(r.updated_at)!,
});

/** `network_routes` (migration 0060). */
export class SqlNetworkRouteRepository implements NetworkRouteRepository {
  readonly #database: Database;
  constructor(database: Database) { this.#database = database; }

  async list(): Promise<NetworkRoute[]> {
    return (await sqlRows<RouteRow>(this.#database.em(), 'select * from network_routes order by channel, country, network limit 1000', [])).map(toRoute);
  }

  async findById(id: string): Promise<NetworkRoute | null> {
    const [row] = await sqlRows<RouteRow>(this.#database.em(), 'select * from network_routes where id = $1', [id]);
    return row ? toRoute(row) : null;
  }

  async find(channel: Channel, country: string, network: string): Promise<NetworkRoute | null> {
    const [row] = await sqlRows<RouteRow>(this.#database.em(), 'select * from network_routes where channel = $1 and country = $2 and network = $3', [channel, country, network]);
    return row ? toRoute(row) : null;
  }

  async save(route: NetworkRoute): Promise<NetworkRoute> {
    const [row] = await sqlRows<RouteRow>(this.#database.em(), `insert into network_routes (id, channel, country, network, providers, price_per_unit, pinned, created_at, updated_at)
      values ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9)
      on conflict (channel, country, network) do update set providers = excluded.providers, price_per_unit = excluded.price_per_unit, pinned = excluded.pinned, updated_at = excluded.updated_at
      returning *`, [route.id, route.channel, route.country, route.network, JSON.stringify(route.providers), route.pricePerUnit, route.pinned, route.createdAt, route.updatedAt]);
    return toRoute(row!);
  }

  async remove(id: string): Promise<boolean> {
    return (await sqlRows(this.#database.em(), 'delete from network_routes where id = $1 returning id', [id])).length === 1;
  }

  async count(): Promise<number> {
    const [row] = await sqlRows<{ n: Num }>(this.#database.em(), 'select count(*) as n from network_routes', []);
    return Number(row?.n ?? 0);
  }
}

interface NumberRow { e164: string; country: string; network: string; source: string; learned_at: Date | string; expires_at: Date | string | null }
const toNumber = (r: NumberRow): StoredNumberNetwork => ({
  e164: r.e164, country: r.country, network: r.network, source: r.source as NetworkSource, learnedAt: toDate(r.learned_at)!, expiresAt: toDate(r.expires_at),
});

/** `number_networks` (migration 0060). */
export class SqlNumberNetworkRepository implements NumberNetworkRepository {
  readonly #database: Database;
  constructor(database: Database) { this.#database = database; }

  async save(entry: StoredNumberNetwork): Promise<void> {
    await sqlRows(this.#database.em(), `insert into number_networks (e164, country, network, source, learned_at, expires_at) values ($1, $2, $3, $4, $5, $6)
      on conflict (e164) do update set country = excluded.country, network = excluded.network, source = excluded.source, learned_at = excluded.learned_at, expires_at = excluded.expires_at`,
    [entry.e164, entry.country, entry.network, entry.source, entry.learnedAt, entry.expiresAt]);
  }

  async find(e164: string, now: Date): Promise<StoredNumberNetwork | null> {
    const [row] = await sqlRows<NumberRow>(this.#database.em(), 'select * from number_networks where e164 = $1 and (expires_at is null or expires_at > $2)', [e164, now]);
    return row ? toNumber(row) : null;
  }

  async changedSince(since: Date, limit: number): Promise<StoredNumberNetwork[]> {
    return (await sqlRows<NumberRow>(this.#database.em(), 'select * from number_networks where learned_at > $1 order by learned_at limit $2', [since, limit])).map(toNumber);
  }

  /** `number_lookup_claims` (migration 0069): one statement; a held claim is left alone, an expired one taken over. */
  async claimLookup(e164: string, organizationId: string, now: Date, until: Date): Promise<boolean> {
    const rows = await sqlRows(this.#database.em(), `insert into number_lookup_claims as c (e164, organization_id, claimed_until) values ($1, $2, $4)
      on conflict (e164) do update set organization_id = excluded.organization_id, claimed_until = excluded.claimed_until where c.claimed_until <= $3
      returning 1`, [e164, organizationId, now, until]);
    return rows.length > 0;
  }

  async settleLookup(e164: string, until: Date): Promise<void> {
    await sqlRows(this.#database.em(), 'update number_lookup_claims set claimed_until = $2 where e164 = $1', [e164, until]);
  }

  async releaseLookup(e164: string): Promise<void> {
    await sqlRows(this.#database.em(), 'delete from number_lookup_claims where e164 = $1', [e164]);
  }
}

/** `organization_routing_settings` (migration 0060). */
export class SqlRoutingSettingsRepository implements RoutingSettingsRepository {
  readonly #database: Database;
  constructor(database: Database) { this.#database = database; }

  async lookupMode(organizationId: string): Promise<LookupMode> {
    const [row] = await sqlRows<{ lookup_mode: LookupMode }>(this.#database.em(), 'select lookup_mode from organization_routing_settings where organization_id = $1', [organizationId]);
    return row?.lookup_mode ?? 'off';
  }

  async setLookupMode(organizationId: string, mode: LookupMode, now: Date): Promise<void> {
    await sqlRows(this.#database.em(), `insert into organization_routing_settings (organization_id, lookup_mode, updated_at) values ($1, $2, $3)
      on conflict (organization_id) do update set lookup_mode = excluded.lookup_mode, updated_at = excluded.updated_at`, [organizationId, mode, now]);
  }
}

/** Per-network figures of an organization's messages (the partitioned `messages` table, pruned by created_at). */
export class SqlNetworkAnalyticsRepository implements NetworkAnalyticsRepository {
  readonly #database: Database;
  constructor(database: Database) { this.#database = database; }

  async byNetwork(organizationId: string, from: Date, to: Date): Promise<NetworkFigures[]> {
    const rows = await sqlRows<{ country: string; network: string; provider: string | null; messages: Num; delivered: Num; failed: Num; cost: Num; p50: Num | null; p95: Num | null }>(
      this.#database.em(), `select country, network, provider, count(*) as messages, count(*) filter (where status = 'DELIVERED') as delivered,
        count(*) filter (where status = 'FAILED') as failed, coalesce(sum(cost), 0) as cost,
        round((percentile_cont(0.5) within group (order by extract(epoch from delivered_at - sent_at) * 1000) filter (where status = 'DELIVERED' and sent_at is not null))::numeric) as p50,
        round((percentile_cont(0.95) within group (order by extract(epoch from delivered_at - sent_at) * 1000) filter (where status = 'DELIVERED' and sent_at is not null))::numeric) as p95
      from messages where organization_id = $1 and created_at >= $2 and created_at < $3 and not is_sandbox and network is not null and country is not null
      group by country, network, provider order by count(*) desc, country, network, provider limit $4`, [organizationId, from, to, MAX_NETWORK_FIGURES]);
    return rows.map((r) => ({ country: r.country, network: r.network, provider: r.provider, messages: Number(r.messages), delivered: Number(r.delivered), failed: Number(r.failed),
      cost: Number(r.cost), latencyP50Ms: r.p50 === null ? null : Number(r.p50), latencyP95Ms: r.p95 === null ? null : Number(r.p95) }));
  }
}
