import type { Channel } from './channel.ts';

/**
 * Vendors an organization may bring its own account of (docs/providers.md, "Tenant-owned vendor
 * accounts"), with the channel each serves: HTTP vendors reached at their public endpoints. Not the
 * outbox (a local file) nor SMTP (a host of the tenant's choosing would reach the internal network).
 * `web-push` connects to each subscription's push service, under the address policy (docs/security.md).
 */
export const TENANT_VENDOR_CHANNELS: Readonly<Record<string, Channel>> = {
  'arkesel-sms': 'SMS', 'hubtel-sms': 'SMS', 'mnotify-sms': 'SMS', 'termii-sms': 'SMS', 'africas-talking-sms': 'SMS', 'twilio-sms': 'SMS',
  'meta-whatsapp': 'WHATSAPP', 'sendgrid-email': 'EMAIL', 'fcm-push': 'PUSH', 'apns-push': 'PUSH', 'expo-push': 'PUSH', 'web-push': 'PUSH', 'twilio-voice': 'VOICE', 'africas-talking-voice': 'VOICE',
};

/** Vendors that report to us by callback (delivery reports, inbound messages): each account has its own callback URL. */
export const CALLBACK_VENDORS: readonly string[] = [
  'arkesel-sms', 'africas-talking-sms', 'africas-talking-voice', 'twilio-sms', 'twilio-voice', 'meta-whatsapp', 'sendgrid-email',
];

/**
 * The provider name a provider's messages and attempts record (and delivery reports are matched on):
 * the platform's own name; `<organizationId>/<name>` for an organization's own account. Names cannot
 * contain '/', so no tenant's name collides with a platform provider's or another tenant's.
 */
export function deliveryName(p: Pick<ProviderConfig, 'name' | 'organizationId'>): string {
  return p.organizationId ? `${p.organizationId}/${p.name}` : p.name;
}

/** The path of a callback vendor's per-account callback URL (append to PUBLIC_URL), or null for a vendor without callbacks. */
export function callbackPath(p: Pick<ProviderConfig, 'vendor' | 'callbackId'>): string | null {
  return p.callbackId && CALLBACK_VENDORS.includes(p.vendor) ? `/providers/callbacks/${p.vendor}/${p.callbackId}` : null;
}

/** The country of a default route: used for every destination without a specific route. */
export const DEFAULT_ROUTE = '*';

/**
 * A messaging provider as platform administrators configure it (platform-level, not tenant data).
 * Credentials are not part of it: they are stored encrypted and only the vendor adapter sees them.
 */
export interface ProviderConfig {
  id: string;
  /** Unique, e.g. 'arkesel-gh'. */
  name: string;
  /** Which adapter talks to it, e.g. 'arkesel-sms', 'twilio-voice', 'outbox'. */
  vendor: string;
  channel: Channel;
  /** Lower runs first among providers routed to the same country. */
  priority: number;
  active: boolean;
  /** Non-secret settings (sender id, base URL ...). */
  settings: Record<string, string>;
  /** ISO 3166 alpha-2 countries this provider serves, and/or '*' as a default route. */
  countries: string[];
  hasCredentials: boolean;
  /**
   * The organization whose own vendor account this is (docs/providers.md, "Tenant-owned vendor
   * accounts"): it routes only that organization's sends, before the platform's. Null: the platform's.
   */
  organizationId: string | null;
  /** For an organization's own account: whether the platform's providers may deliver when its own accounts fail. */
  platformFallback: boolean;
  /**
   * The unguessable id of the provider's callback URL (`/providers/callbacks/<vendor>/<callbackId>`):
   * only this provider's secret verifies what arrives there (docs/providers.md, "Callback URLs").
   * Set by the repository; absent on a configuration not stored yet.
   */
  callbackId?: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface ProviderHealthCheck {
  id: string;
  providerId: string;
  ok: boolean;
  latencyMs: number;
  detail: string;
  balance: number | null;
  checkedAt: Date;
}

/**
 * The failover order for a message: active providers of the channel routed to the destination
 * country (by priority), then the channel's default-route providers (by priority). A provider
 * routed both ways appears once, at its first place.
 */
export function routeCandidates(providers: readonly ProviderConfig[], channel: Channel, country: string | null): ProviderConfig[] {
  const usable = providers.filter((p) => p.active && p.channel === channel);
  const byPriority = (a: ProviderConfig, b: ProviderConfig) => a.priority - b.priority || a.name.localeCompare(b.name);
  const specific = country ? usable.filter((p) => p.countries.includes(country.toUpperCase())).sort(byPriority) : [];
  const fallback = usable.filter((p) => p.countries.includes(DEFAULT_ROUTE) && !specific.includes(p)).sort(byPriority);
  return [...specific, ...fallback];
}

export function providerView(p: ProviderConfig, latest: ProviderHealthCheck | null) {
  return {
    id: p.id, name: p.name, vendor: p.vendor, channel: p.channel, priority: p.priority, active: p.active,
    settings: p.settings, routes: p.countries.map((country) => ({ country, priority: p.priority })), hasCredentials: p.hasCredentials,
    health: latest ? healthView(latest) : null, createdAt: p.createdAt.toISOString(), updatedAt: p.updatedAt.toISOString(),
  };
}

export function healthView(h: ProviderHealthCheck) {
  return { status: h.ok ? 'ok' : 'degraded', ok: h.ok, latencyMs: h.latencyMs, detail: h.detail, balance: h.balance, checkedAt: h.checkedAt.toISOString() };
}

/** An organization's own vendor account as the organization sees it: configuration without credentials, never another owner's. */
export function vendorAccountView(p: ProviderConfig, latest: ProviderHealthCheck | null) {
  return {
    id: p.id, name: p.name, vendor: p.vendor, channel: p.channel, priority: p.priority, active: p.active, countries: p.countries,
    settings: p.settings, hasCredentials: p.hasCredentials, platformFallback: p.platformFallback,
    deliveryName: deliveryName(p), callbackPath: callbackPath(p),
    health: latest ? healthView(latest) : null, createdAt: p.createdAt.toISOString(), updatedAt: p.updatedAt.toISOString(),
  };
}
