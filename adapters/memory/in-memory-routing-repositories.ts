import type { Channel } from '../../core/domain/channel.ts';
import type { LookupMode } from '../../core/domain/mobile-network.ts';
import type { NetworkRoute } from '../../core/domain/network-route.ts';
import type { NetworkRouteRepository } from '../../core/ports/network-route-repository.ts';
import type { NumberNetworkRepository, StoredNumberNetwork } from '../../core/ports/number-network-repository.ts';
import type { RoutingSettingsRepository } from '../../core/ports/routing-settings-repository.ts';

const copyRoute = (r: NetworkRoute): NetworkRoute => ({ ...r, providers: [...r.providers] });

/** Network routes in memory: the same rules as SqlNetworkRouteRepository. */
export class InMemoryNetworkRouteRepository implements NetworkRouteRepository {
  readonly #routes = new Map<string, NetworkRoute>();

  async list(): Promise<NetworkRoute[]> {
    const key = (r: NetworkRoute) => `${r.channel}|${r.country}|${r.network}`;
    return [...this.#routes.values()].sort((a, b) => (key(a) < key(b) ? -1 : 1)).map(copyRoute);
  }

  async findById(id: string): Promise<NetworkRoute | null> {
    const r = this.#routes.get(id);
    return r ? copyRoute(r) : null;
  }

  async find(channel: Channel, country: string, network: string): Promise<NetworkRoute | null> {
    const r = [...this.#routes.values()].find((x) => x.channel === channel && x.country === country && x.network === network);
    return r ? copyRoute(r) : null;
  }

  async save(route: NetworkRoute): Promise<NetworkRoute> {
    const existing = await this.find(route.channel, route.country, route.network);
    const saved = existing ? { ...route, id: existing.id, createdAt: existing.createdAt } : route;
    this.#routes.set(saved.id, copyRoute(saved));
    return copyRoute(saved);
  }

  async remove(id: string): Promise<boolean> { return this.#routes.delete(id); }

  async count(): Promise<number> { return this.#routes.size; }
}

/** Numbers' networks in memory: the same rules as SqlNumberNetworkRepository. */
export class InMemoryNumberNetworkRepository implements NumberNetworkRepository {
  readonly #entries = new Map<string, StoredNumberNetwork>();

  async save(entry: StoredNumberNetwork): Promise<void> { this.#entries.set(entry.e164, { ...entry }); }

  async find(e164: string, now: Date): Promise<StoredNumberNetwork | null> {
    const e = this.#entries.get(e164);
    return e && (e.expiresAt === null || e.expiresAt > now) ? { ...e } : null;
  }

  async changedSince(since: Date, limit: number): Promise<StoredNumberNetwork[]> {
    return [...this.#entries.values()].filter((e) => e.learnedAt > since).sort((a, b) => a.learnedAt.getTime() - b.learnedAt.getTime()).slice(0, limit).map((e) => ({ ...e }));
  }

  readonly #claims = new Map<string, Date>();

  async claimLookup(e164: string, _organizationId: string, now: Date, until: Date): Promise<boolean> {
    const held = this.#claims.get(e164);
    if (held && held > now) return false;
    this.#claims.set(e164, until);
    return true;
  }

  async settleLookup(e164: string, until: Date): Promise<void> { this.#claims.set(e164, until); }

  async releaseLookup(e164: string): Promise<void> { this.#claims.delete(e164); }
}

/** Routing settings in memory. */
export class InMemoryRoutingSettingsRepository implements RoutingSettingsRepository {
  readonly #modes = new Map<string, LookupMode>();
  async lookupMode(organizationId: string): Promise<LookupMode> { return this.#modes.get(organizationId) ?? 'off'; }
  async setLookupMode(organizationId: string, mode: LookupMode): Promise<void> { this.#modes.set(organizationId, mode); }
}
