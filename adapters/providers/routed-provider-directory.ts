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
 * dropped: when everything is unhealthy, trying beats failing). Sandbox sends: the sandbox provider.
 */
export class RoutedProviderDirectory implements ProviderDirectory {
  #entries: RoutedEntry[];
  readonly #sandbox: ReadonlyMap<Channel, ChannelProvider>;
  readonly #unhealthy = new Set<string>();

  constructor(entries: RoutedEntry[], sandbox: readonly ChannelProvider[]) {
    this.#entries = entries;
    this.#sandbox = new Map(sandbox.map((p) => [p.channel, p]));
  }

  replace(entries: RoutedEntry[]): void { this.#entries = entries; }

  setHealth(providerId: string, ok: boolean): void {
    if (ok) this.#unhealthy.delete(providerId); else this.#unhealthy.add(providerId);
  }

  entries(): readonly RoutedEntry[] { return this.#entries; }

  providersFor(channel: Channel, country: string | null, sandbox: boolean): readonly ChannelProvider[] {
    if (sandbox) {
      const provider = this.#sandbox.get(channel);
      return provider ? [provider] : [];
    }
    const byId = new Map(this.#entries.map((e) => [e.config.id, e]));
    const ordered = routeCandidates(this.#entries.map((e) => e.config), channel, country).map((c) => byId.get(c.id)!);
    const usable = ordered.filter((e) => !e.provider.isOpen() && !this.#unhealthy.has(e.config.id));
    const degraded = ordered.filter((e) => !usable.includes(e));
    return [...usable, ...degraded].map((e) => e.provider);
  }
}
