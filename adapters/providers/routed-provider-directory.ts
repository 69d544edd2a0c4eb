import { routeCandidates, type ProviderConfig } from '../../core/domain/provider.ts';
import type { Channel } from '../../core/domain/channel.ts';
import type { MobileNetwork } from '../../core/domain/mobile-network.ts';
import type { ChannelProvider, ProviderDirectory } from '../../core/ports/channel-provider.ts';
import type { GuardedProvider } from './guarded-provider.ts';

/** Network routing on top of the country order (adapters/routing/network-router.ts). */
export interface NetworkOrdering {
  order<T>(candidates: readonly T[], nameOf: (c: T) => string, channel: Channel, network: MobileNetwork): readonly T[];
}

export interface RoutedEntry {
  config: ProviderConfig;
  provider: GuardedProvider;
}

/**
 * Live sends: candidates from the routing rules (country routes by priority, then default routes),
 * with providers whose circuit is open or whose latest health check failed moved to the back (not
 * dropped: when everything is unhealthy, trying beats failing). An organization's own vendor accounts
 * come first for its sends, then the platform's providers unless one of its accounts routed there
 * forbids it (`platformFallback: false`); other organizations never see them. Sandbox sends: the
 * sandbox provider.
 */
export class RoutedProviderDirectory implements ProviderDirectory {
  #platform: RoutedEntry[] = [];
  #owned = new Map<string, RoutedEntry[]>();
  readonly #sandbox: ReadonlyMap<Channel, ChannelProvider>;
  readonly #unhealthy = new Set<string>();
  #networks: NetworkOrdering | null = null;

  constructor(entries: RoutedEntry[], sandbox: readonly ChannelProvider[]) {
    this.replace(entries);
    this.#sandbox = new Map(sandbox.map((p) => [p.channel, p]));
  }

  replace(entries: RoutedEntry[]): void {
    const owned = new Map<string, RoutedEntry[]>();
    for (const e of entries) {
      const owner = e.config.organizationId;
      if (owner) owned.set(owner, [...(owned.get(owner) ?? []), e]);
    }
    this.#platform = entries.filter((e) => !e.config.organizationId);
    this.#owned = owned;
  }

  setHealth(providerId: string, ok: boolean): void {
    if (ok) this.#unhealthy.delete(providerId); else this.#unhealthy.add(providerId);
  }

  /** The platform's providers (organizations' own accounts are not listed). */
  entries(): readonly RoutedEntry[] { return this.#platform; }

  ownsRoute(organizationId: string, channel: Channel, country: string | null): boolean {
    const owned = this.#owned.get(organizationId);
    return owned !== undefined && routeCandidates(owned.map((e) => e.config), channel, country).length > 0;
  }

  /** Orders the platform's providers for a message to a known network (NetworkRouter: routes, learning, pins). */
  useNetworkOrdering(ordering: NetworkOrdering | null): void { this.#networks = ordering; }

  providersFor(channel: Channel, country: string | null, sandbox: boolean, organizationId?: string, network?: string | null): readonly ChannelProvider[] {
    if (sandbox) {
      const provider = this.#sandbox.get(channel);
      return provider ? [provider] : [];
    }
    const owned = organizationId ? this.#ordered(this.#owned.get(organizationId) ?? [], channel, country) : [];
    if (owned.some((e) => !e.config.platformFallback)) return owned.map((e) => e.provider);
    const platform = this.#ordered(this.#platform, channel, country);
    const byNetwork = network && country && this.#networks ? this.#networks.order(platform, (e) => e.config.name, channel, { country, network }) : platform;
    return [...owned, ...byNetwork].map((e) => e.provider);
  }

  #ordered(entries: readonly RoutedEntry[], channel: Channel, country: string | null): RoutedEntry[] {
    if (entries.length === 0) return [];
    const byId = new Map(entries.map((e) => [e.config.id, e]));
    const ordered = routeCandidates(entries.map((e) => e.config), channel, country).map((c) => byId.get(c.id)!);
    const usable = ordered.filter((e) => !e.provider.isOpen() && !this.#unhealthy.has(e.config.id));
    const degraded = ordered.filter((e) => !usable.includes(e));
    return [...usable, ...degraded];
  }
}
