import { routeCandidates, type ProviderConfig } from '../../core/domain/provider.ts';
import type { Channel } from '../../core/domain/channel.ts';
import type { ChannelProvider, ProviderDirectory } from '../../core/ports/channel-provider.ts';
import type { GuardedProvider } from './guarded-provider.ts';

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

  providersFor(channel: Channel, country: string | null, sandbox: boolean, organizationId?: string): readonly ChannelProvider[] {
    if (sandbox) {
      const provider = this.#sandbox.get(channel);
      return provider ? [provider] : [];
    }
    const owned = organizationId ? this.#ordered(this.#owned.get(organizationId) ?? [], channel, country) : [];
    if (owned.some((e) => !e.config.platformFallback)) return owned.map((e) => e.provider);
    return [...owned, ...this.#ordered(this.#platform, channel, country)].map((e) => e.provider);
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
