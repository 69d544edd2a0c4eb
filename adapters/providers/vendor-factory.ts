import type { ProviderConfig } from '../../core/domain/provider.ts';
import type { ChannelProvider } from '../../core/ports/channel-provider.ts';
import type { VendorAdapter } from '../../core/ports/vendor-adapter.ts';
import { ArkeselSmsProvider } from './arkesel-sms.ts';
import { HubtelSmsProvider } from './hubtel-sms.ts';
import { MnotifySmsProvider } from './mnotify-sms.ts';
import { OutboxProvider } from './outbox-provider.ts';

export interface FactoryContext {
  /** Where the outbox provider writes. */
  outboxDirectory: string;
  timeoutMs: number;
  /** Public base URL of this service: vendor callbacks go to `${publicUrl}/providers/callbacks/<vendor>`. */
  publicUrl: string;
}

/** A required credential or setting; missing ones fail the provider's load with a clear message. */
function need(values: Record<string, string>, key: string, provider: ProviderConfig): string {
  const value = values[key];
  if (!value) throw new Error(`provider ${provider.name}: "${key}" is required`);
  return value;
}

/** Optional base URL and timeout shared by the HTTP vendors. */
function common(config: ProviderConfig, context: FactoryContext) {
  return { name: config.name, timeoutMs: context.timeoutMs, ...(config.settings['baseUrl'] ? { baseUrl: config.settings['baseUrl'] } : {}) };
}

type Builder = (config: ProviderConfig, credentials: Record<string, string>, context: FactoryContext) => ChannelProvider | VendorAdapter;

/** Vendor key -> adapter constructor. Unknown vendors are reported by `createVendorAdapter`. */
export const VENDOR_BUILDERS: Record<string, Builder> = {
  outbox: (config, _credentials, context) => new OutboxProvider(config.channel, context.outboxDirectory, config.name),
  'arkesel-sms': (config, credentials, context) => new ArkeselSmsProvider({
    ...common(config, context), credentials: { apiKey: need(credentials, 'apiKey', config) }, senderId: need(config.settings, 'senderId', config),
    callbackUrl: `${context.publicUrl}/providers/callbacks/arkesel-sms`,
  }),
  'hubtel-sms': (config, credentials, context) => new HubtelSmsProvider({
    ...common(config, context), credentials: { clientId: need(credentials, 'clientId', config), clientSecret: need(credentials, 'clientSecret', config) },
    from: need(config.settings, 'from', config),
  }),
  'mnotify-sms': (config, credentials, context) => new MnotifySmsProvider({
    ...common(config, context), credentials: { apiKey: need(credentials, 'apiKey', config) }, senderId: need(config.settings, 'senderId', config),
  }),
};

export function createVendorAdapter(config: ProviderConfig, credentials: Record<string, string>, context: FactoryContext): ChannelProvider | VendorAdapter {
  const build = VENDOR_BUILDERS[config.vendor];
  if (!build) throw new Error(`unknown provider vendor "${config.vendor}" (provider ${config.name}); known: ${Object.keys(VENDOR_BUILDERS).join(', ')}`);
  return build(config, credentials, context);
}

export function isVendorAdapter(provider: ChannelProvider | VendorAdapter): provider is VendorAdapter {
  return typeof (provider as Partial<VendorAdapter>).checkHealth === 'function';
}
