import { deliveryName, type ProviderConfig } from '../../core/domain/provider.ts';
import type { ChannelProvider } from '../../core/ports/channel-provider.ts';
import type { VendorAdapter } from '../../core/ports/vendor-adapter.ts';
import { AfricasTalkingSmsProvider } from './africas-talking-sms.ts';
import { AfricasTalkingVoiceProvider } from './africas-talking-voice.ts';
import { ArkeselSmsProvider } from './arkesel-sms.ts';
import { TermiiSmsProvider } from './termii-sms.ts';
import { FcmPushProvider } from './fcm-push.ts';
import { ApnsPushProvider } from './apns-push.ts';
import { ExpoPushProvider } from './expo-push.ts';
import { WEB_PUSH_URGENCIES, WebPushProvider, type WebPushUrgency } from './web-push.ts';
import type { DnsEgressPolicy } from '../egress/dns-egress-policy.ts';
import { MetaWhatsappProvider } from './meta-whatsapp.ts';
import { SendgridEmailProvider } from './sendgrid-email.ts';
import { SmtpEmailProvider } from './smtp-email.ts';
import { TwilioSmsProvider } from './twilio-sms.ts';
import { TwilioVoiceProvider } from './twilio-voice.ts';
import { HubtelSmsProvider } from './hubtel-sms.ts';
import { MnotifySmsProvider } from './mnotify-sms.ts';
import { OutboxProvider } from './outbox-provider.ts';

export interface FactoryContext {
  /** Where the outbox provider writes. */
  outboxDirectory: string;
  timeoutMs: number;
  /** Public base URL of this service: vendor callbacks go to `${publicUrl}/providers/callbacks/<vendor>/<callbackId>`. */
  publicUrl: string;
  /** The egress policy Web Push sends connect through (its hosts are each subscription's); a strict default when absent. */
  egress?: DnsEgressPolicy;
}

/** A required credential or setting; missing ones fail the provider's load with a clear message. */
function need(values: Record<string, string>, key: string, provider: ProviderConfig): string {
  const value = values[key];
  if (!value) throw new Error(`provider ${provider.name}: ${values === provider.settings ? 'setting' : 'credential'} "${key}" is required`);
  return value;
}

/** `{ key: value }` when the value is set, else nothing (exactOptionalPropertyTypes-friendly). */
function optional(values: Record<string, string>, key: string): Record<string, string> {
  return values[key] ? { [key]: values[key] } : {};
}

/**
 * The provider's own callback URL (docs/providers.md, "Callback URLs"): `/providers/callbacks/<vendor>/<callbackId>`,
 * where only its secret verifies; the vendor-wide URL (platform providers only) for a configuration not stored yet.
 */
export function callbackUrl(config: ProviderConfig, context: FactoryContext): string {
  return `${context.publicUrl}/providers/callbacks/${config.vendor}${config.callbackId ? `/${config.callbackId}` : ''}`;
}

/** Optional base URL and timeout shared by the HTTP vendors; the name its messages record (namespaced for an organization's own account). */
function common(config: ProviderConfig, context: FactoryContext) {
  return { name: deliveryName(config), timeoutMs: context.timeoutMs, ...(config.settings['baseUrl'] ? { baseUrl: config.settings['baseUrl'] } : {}) };
}

/** APNs' `environment` setting: production (the default) or sandbox (development builds); anything else refuses to load. */
function apnsEnvironment(config: ProviderConfig): 'production' | 'sandbox' {
  const value = config.settings['environment'] ?? 'production';
  if (value !== 'production' && value !== 'sandbox') throw new Error(`provider ${config.name}: setting "environment" must be "production" or "sandbox"`);
  return value;
}

/** Web Push's `ttlSeconds` (0 to 28 days) and `urgency` settings; anything else refuses to load. */
function webPushSettings(config: ProviderConfig): { ttlSeconds?: number; urgency?: WebPushUrgency } {
  const ttl = config.settings['ttlSeconds'];
  const urgency = config.settings['urgency'];
  if (ttl !== undefined && (!/^\d+$/.test(ttl) || Number(ttl) > 2_419_200)) throw new Error(`provider ${config.name}: setting "ttlSeconds" must be a whole number of seconds from 0 to 2419200 (28 days)`);
  if (urgency !== undefined && !(WEB_PUSH_URGENCIES as readonly string[]).includes(urgency)) {
    throw new Error(`provider ${config.name}: setting "urgency" must be one of ${WEB_PUSH_URGENCIES.join(', ')}`);
  }
  return { ...(ttl !== undefined ? { ttlSeconds: Number(ttl) } : {}), ...(urgency !== undefined ? { urgency: urgency as WebPushUrgency } : {}) };
}

type Builder = (config: ProviderConfig, credentials: Record<string, string>, context: FactoryContext) => ChannelProvider | VendorAdapter;

/** Vendor key -> adapter constructor. Unknown vendors are reported by `createVendorAdapter`. */
export const VENDOR_BUILDERS: Record<string, Builder> = {
  outbox: (config, _credentials, context) => new OutboxProvider(config.channel, context.outboxDirectory, config.name),
  'termii-sms': (config, credentials, context) => new TermiiSmsProvider({
    ...common(config, context), credentials: { apiKey: need(credentials, 'apiKey', config) }, senderId: need(config.settings, 'senderId', config),
    ...optional(config.settings, 'route'),
  }),
  'arkesel-sms': (config, credentials, context) => new ArkeselSmsProvider({
    ...common(config, context), credentials: { apiKey: need(credentials, 'apiKey', config) }, senderId: need(config.settings, 'senderId', config),
    callbackUrl: callbackUrl(config, context),
  }),
  'hubtel-sms': (config, credentials, context) => new HubtelSmsProvider({
    ...common(config, context), credentials: { clientId: need(credentials, 'clientId', config), clientSecret: need(credentials, 'clientSecret', config) },
    from: need(config.settings, 'from', config),
  }),
  'africas-talking-sms': (config, credentials, context) => new AfricasTalkingSmsProvider({
    ...common(config, context), credentials: { username: need(credentials, 'username', config), apiKey: need(credentials, 'apiKey', config) },
    ...optional(config.settings, 'senderId'), sandbox: config.settings['sandbox'] === 'true', ...optional(credentials, 'callbackToken'),
  }),
  'africas-talking-voice': (config, credentials, context) => new AfricasTalkingVoiceProvider({
    ...common(config, context), credentials: { username: need(credentials, 'username', config), apiKey: need(credentials, 'apiKey', config) },
    from: need(config.settings, 'from', config), sandbox: config.settings['sandbox'] === 'true', ...optional(credentials, 'callbackToken'),
  }),
  'twilio-sms': (config, credentials, context) => new TwilioSmsProvider({
    ...common(config, context), credentials: { accountSid: need(credentials, 'accountSid', config), authToken: need(credentials, 'authToken', config) },
    ...optional(config.settings, 'from'), ...optional(config.settings, 'messagingServiceSid'),
    statusCallbackUrl: callbackUrl(config, context),
  }),
  'twilio-voice': (config, credentials, context) => new TwilioVoiceProvider({
    ...common(config, context), credentials: { accountSid: need(credentials, 'accountSid', config), authToken: need(credentials, 'authToken', config) },
    from: need(config.settings, 'from', config), statusCallbackUrl: callbackUrl(config, context),
  }),
  'meta-whatsapp': (config, credentials, context) => new MetaWhatsappProvider({
    ...common(config, context), credentials: { accessToken: need(credentials, 'accessToken', config), ...optional(credentials, 'appSecret') },
    phoneNumberId: need(config.settings, 'phoneNumberId', config), ...optional(config.settings, 'apiVersion'),
    ...(config.settings['mode'] === 'template' ? { mode: 'template' as const } : {}),
    ...optional(config.settings, 'templateName'), ...optional(config.settings, 'templateLanguage'), ...optional(config.settings, 'businessAccountId'),
  }),
  'fcm-push': (config, credentials, context) => new FcmPushProvider({
    ...common(config, context), credentials: { serviceAccountJson: need(credentials, 'serviceAccountJson', config) }, ...optional(config.settings, 'defaultTitle'),
  }),
  'apns-push': (config, credentials, context) => new ApnsPushProvider({
    ...common(config, context),
    credentials: { privateKey: need(credentials, 'privateKey', config), keyId: need(credentials, 'keyId', config), teamId: need(credentials, 'teamId', config) },
    topic: need(config.settings, 'topic', config), environment: apnsEnvironment(config), ...optional(config.settings, 'defaultTitle'),
  }),
  'expo-push': (config, credentials, context) => new ExpoPushProvider({
    ...common(config, context), credentials: optional(credentials, 'accessToken'), ...optional(config.settings, 'defaultTitle'),
  }),
  'web-push': (config, credentials, context) => new WebPushProvider({
    name: deliveryName(config), timeoutMs: context.timeoutMs, ...(context.egress ? { egress: context.egress } : {}),
    credentials: { publicKey: need(credentials, 'publicKey', config), privateKey: need(credentials, 'privateKey', config), subject: need(credentials, 'subject', config) },
    ...optional(config.settings, 'defaultTitle'), ...webPushSettings(config),
  }),
  'smtp-email': (config, credentials, context) => new SmtpEmailProvider({
    name: config.name, timeoutMs: context.timeoutMs, host: need(config.settings, 'host', config), from: need(config.settings, 'from', config),
    ...(config.settings['port'] ? { port: Number(config.settings['port']) } : {}),
    ...(config.settings['secure'] ? { secure: config.settings['secure'] === 'true' } : {}),
    ...(config.settings['requireTLS'] ? { requireTLS: config.settings['requireTLS'] === 'true' } : {}),
    ...(credentials['user'] ? { credentials: { user: credentials['user'], pass: credentials['pass'] ?? '' } } : {}),
  }),
  'sendgrid-email': (config, credentials, context) => new SendgridEmailProvider({
    ...common(config, context), credentials: { apiKey: need(credentials, 'apiKey', config), ...optional(credentials, 'webhookPublicKey') },
    from: need(config.settings, 'from', config), ...optional(config.settings, 'replyTo'),
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
