import { CHANNELS, type Channel } from '../../core/domain/channel.ts';
import type { ChannelProvider, ProviderDirectory } from '../../core/ports/channel-provider.ts';

/**
 * A fixed failover list per channel for live sends, and one sandbox provider per channel for sandbox
 * keys. (Country routing rules and health-aware failover build on this port.)
 */
export class StaticProviderDirectory implements ProviderDirectory {
  readonly #live: ReadonlyMap<Channel, readonly ChannelProvider[]>;
  readonly #sandbox: ReadonlyMap<Channel, ChannelProvider>;
  constructor(live: readonly ChannelProvider[], sandbox: readonly ChannelProvider[]) {
    this.#live = new Map(CHANNELS.map((c) => [c, live.filter((p) => p.channel === c)]));
    this.#sandbox = new Map(sandbox.map((p) => [p.channel, p]));
  }

  providersFor(channel: Channel, _country: string | null, sandbox: boolean): readonly ChannelProvider[] {
    if (sandbox) {
      const provider = this.#sandbox.get(channel);
      return provider ? [provider] : [];
    }
    return this.#live.get(channel) ?? [];
  }
}
