import type { ProviderConfig } from '../../core/domain/provider.ts';
import type { ChannelProvider } from '../../core/ports/channel-provider.ts';
import type { VendorAdapter } from '../../core/ports/vendor-adapter.ts';
import { OutboxProvider } from './outbox-provider.ts';

export interface FactoryContext {
  /** Where the outbox provider writes. */
  outboxDirectory: string;
  timeoutMs: number;
}

type Builder = (config: ProviderConfig, credentials: Record<string, string>, context: FactoryContext) => ChannelProvider | VendorAdapter;

/** Vendor key -> adapter constructor. Unknown vendors are reported by `createVendorAdapter`. */
export const VENDOR_BUILDERS: Record<string, Builder> = {
  outbox: (config, _credentials, context) => new OutboxProvider(config.channel, context.outboxDirectory, config.name),
};

export function createVendorAdapter(config: ProviderConfig, credentials: Record<string, string>, context: FactoryContext): ChannelProvider | VendorAdapter {
  const build = VENDOR_BUILDERS[config.vendor];
  if (!build) throw new Error(`unknown provider vendor "${config.vendor}" (provider ${config.name}); known: ${Object.keys(VENDOR_BUILDERS).join(', ')}`);
  return build(config, credentials, context);
}

export function isVendorAdapter(provider: ChannelProvider | VendorAdapter): provider is VendorAdapter {
  return typeof (provider as Partial<VendorAdapter>).checkHealth === 'function';
}
