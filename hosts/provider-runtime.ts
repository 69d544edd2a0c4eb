import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_BREAKER_POLICY } from '../core/domain/circuit-breaker.ts';
import { CHANNELS, VENDOR_CHANNELS } from '../core/domain/channel.ts';
import type { Clock } from '../core/ports/clock.ts';
import type { ProviderConfig } from '../core/domain/provider.ts';
import type { ChannelProvider, ProviderResult } from '../core/ports/channel-provider.ts';
import type { DeliveryTraceStore } from '../adapters/telemetry/delivery-trace-store.ts';
import { TracedProvider } from '../adapters/telemetry/traced-provider.ts';
import { tracingOn } from '../adapters/telemetry/tracing.ts';
import type { ProviderRepository } from '../core/ports/provider-repository.ts';
import type { ProviderHealth, VendorAdapter } from '../core/ports/vendor-adapter.ts';
import { ConfigureProviders } from '../core/use-cases/providers/configure-providers.ts';
import { GuardedProvider } from '../adapters/providers/guarded-provider.ts';
import type { ProviderObserver } from '../adapters/providers/provider-observer.ts';
import { RoutedProviderDirectory, type RoutedEntry } from '../adapters/providers/routed-provider-directory.ts';
import { SandboxProvider } from '../adapters/providers/sandbox-provider.ts';
import { createVendorAdapter, isVendorAdapter } from '../adapters/providers/vendor-factory.ts';
import { DnsEgressPolicy } from '../adapters/egress/dns-egress-policy.ts';
import { TenantVendorAdapter } from '../adapters/egress/tenant-vendor-adapter.ts';
import { verifyChallenge } from '../adapters/providers/meta-whatsapp.ts';
import { ConfigError, type Config } from './config.ts';
import { AppError } from '../core/errors.ts';
import type { MetaTemplateListing } from '../core/domain/whatsapp-template.ts';
import type { Logger } from './logger.ts';

/**
 * The live provider set of a process: vendor adapters built from the stored configuration (with
 * decrypted credentials), each behind a circuit breaker and rate limit, routed by country.
 */
export class ProviderRuntime {
  readonly directory = new RoutedProviderDirectory([], CHANNELS.map((c) => new SandboxProvider(c)));
  readonly #repository: ProviderRepository;
  readonly #config: Config;
  readonly #logger: Logger;
  #adapters = new Map<string, VendorAdapter>();
  /** Meta verify tokens by provider id (each account's handshake only on its own URL; the vendor-wide URL takes the platform's). */
  #verifyTokens = new Map<string, string>();
  /** What each loaded provider was built from: an unchanged one keeps its adapter, circuit breaker and rate limit across reloads. */
  #built = new Map<string, { stamp: string; entry: RoutedEntry; adapter: VendorAdapter | null }>();
  #version: string | null = null;

  readonly #observer: ProviderObserver | undefined;
  /** The egress policy organizations' own accounts connect through (docs/security.md); the platform's providers are the operator's and connect directly, except Web Push (each subscription names its host). */
  readonly egress: DnsEgressPolicy;

  /** With tracing on, vendor calls are wrapped in spans and their trace recorded for delivery reports (docs/observability.md). */
  readonly #deliveryTraces: DeliveryTraceStore | undefined;

  constructor(repository: ProviderRepository, config: Config, logger: Logger, observer?: ProviderObserver, egress?: DnsEgressPolicy, deliveryTraces?: DeliveryTraceStore) {
    this.#deliveryTraces = deliveryTraces;
    this.#repository = repository;
    this.#config = config;
    this.#logger = logger;
    this.#observer = observer;
    this.egress = egress ?? new DnsEgressPolicy({ allowPrivateHosts: config.egressAllowPrivateHosts, vendorBaseUrls: config.vendorBaseUrls });
  }

  /**
   * (Re)builds the providers from the database and swaps them in at once. A provider whose stored
   * configuration did not change keeps its adapter (its circuit breaker and rate limit too); a changed
   * one is rebuilt (sends in flight finish on the adapter they started with). Unknown vendors are
   * logged and skipped.
   */
  async reload(): Promise<void> {
    const version = await this.#repository.configVersion();
    const entries: RoutedEntry[] = [];
    const adapters = new Map<string, VendorAdapter>();
    const verifyTokens = new Map<string, string>();
    const built = new Map<string, { stamp: string; entry: RoutedEntry; adapter: VendorAdapter | null }>();
    for (const { config, credentials, credentialsError } of await this.#repository.listWithCredentials()) {
      if (!config.active) continue;
      if (credentialsError) {
        this.#logger.error({ provider: config.name, providerId: config.id }, `provider not loaded: ${credentialsError}`);
        continue;
      }
      if (config.vendor === 'meta-whatsapp' && credentials['verifyToken']) verifyTokens.set(config.id, credentials['verifyToken']);
      const stamp = config.updatedAt.toISOString();
      const previous = this.#built.get(config.id);
      try {
        const kept = previous?.stamp === stamp ? previous : null;
        const adapter = kept ? null : this.#build(config, credentials);
        const entry = kept?.entry ?? { config, provider: new GuardedProvider(this.#traced(adapter!), {
          breaker: { ...DEFAULT_BREAKER_POLICY, cooldownMs: this.#config.providerCircuitCooldownMs },
          maxConcurrency: Number(config.settings['maxConcurrency'] ?? 50),
          maxPerSecond: Number(config.settings['maxPerSecond'] ?? 0),
          ratePerSecond: Number(config.settings['ratePerSecond'] ?? 0),
          ...(this.#observer ? { observer: this.#observer } : {}),
          organizationId: config.organizationId,
        }) };
        const vendorAdapter = kept ? kept.adapter : isVendorAdapter(adapter!) ? adapter as VendorAdapter : null;
        if (vendorAdapter) adapters.set(config.id, vendorAdapter);
        entries.push(entry);
        built.set(config.id, { stamp, entry, adapter: vendorAdapter });
      } catch (error) {
        this.#logger.error({ provider: config.name, err: error }, 'provider not loaded');
      }
    }
    this.#adapters = adapters;
    this.#verifyTokens = verifyTokens;
    this.#built = built;
    this.directory.replace(entries);
    if (this.#version !== null && this.#version !== version) this.#logger.info({ providers: entries.length }, 'providers reloaded');
    this.#version = version;
  }

  /**
   * Applies provider changes made by any process (administration API, another instance) within
   * `intervalMs`: polls the stored configuration's version and reloads when it moved.
   */
  startConfigWatch(intervalMs: number): () => void {
    let busy = false;
    const timer = setInterval(() => {
      if (busy) return;
      busy = true;
      this.#repository.configVersion()
        .then((version) => (version !== this.#version ? this.reload() : undefined))
        .catch((error: unknown) => this.#logger.warn({ err: error }, 'provider configuration check failed'))
        .finally(() => { busy = false; });
    }, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** Sends through one loaded provider (its breaker and rate limit included); null when it is not loaded (inactive, unknown). */
  async sendThrough(providerId: string, message: { messageId: string; to: string; subject: string | null; body: string }): Promise<ProviderResult | null> {
    const built = this.#built.get(providerId);
    if (!built) return null;
    const { provider, config } = built.entry;
    return provider.send({ ...message, internalMessageId: message.messageId, organizationId: config.organizationId ?? 'platform', channel: config.channel, senderId: null });
  }

  /**
   * An organization's own account talks to the vendor's public endpoint, or to the operator's
   * VENDOR_BASE_URLS entry for that vendor: never to a base URL a tenant chose (that would let a tenant
   * make this service call its internal network).
   */
  #withBaseUrl(config: ProviderConfig): ProviderConfig {
    if (!config.organizationId) return config;
    const { baseUrl: _ignored, ...settings } = config.settings;
    const operatorUrl = this.#config.vendorBaseUrls[config.vendor];
    return { ...config, settings: operatorUrl ? { ...settings, baseUrl: operatorUrl } : settings };
  }

  /** With tracing on (checked when the provider is built), the adapter in a span per call. */
  #traced<A extends ChannelProvider>(adapter: A): ChannelProvider {
    return tracingOn() && this.#deliveryTraces ? new TracedProvider(adapter, this.#deliveryTraces) : adapter;
  }

  /** The adapter of a stored configuration; an organization's own account behind the egress policy (TenantVendorAdapter). */
  #build(config: ProviderConfig, credentials: Record<string, string>) {
    const adapter = createVendorAdapter(this.#withBaseUrl(config), credentials, this.#factoryContext());
    return config.organizationId && isVendorAdapter(adapter) ? new TenantVendorAdapter(adapter, { policy: this.egress }) : adapter;
  }

  /** The circuit breaker state of a loaded provider as this process sees it (each process keeps its own); null when not loaded. */
  circuitOf(providerId: string): 'closed' | 'open' | 'half-open' | null {
    return this.#built.get(providerId)?.entry.provider.circuit ?? null;
  }

  /** Whether a configuration builds (the administration API refuses one that does not): null, or why not. */
  check(config: ProviderConfig, credentials: Record<string, string>): string | null {
    try {
      createVendorAdapter(this.#withBaseUrl(config), credentials, this.#factoryContext());
      return null;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  #factoryContext() {
    return { outboxDirectory: path.join(this.#config.dataDir, 'outbox'), timeoutMs: this.#config.providerTimeoutMs, publicUrl: this.#config.publicUrl, egress: this.egress };
  }

  /** Runs the real health check of a loaded provider; null when it is not loaded. */
  async runHealthCheck(providerId: string): Promise<ProviderHealth | null> {
    const adapter = this.#adapters.get(providerId);
    return adapter ? adapter.checkHealth() : null;
  }

  /**
   * The message templates of the WhatsApp Business Account an organization's WHATSAPP messages go
   * through (docs/whatsapp-templates.md): its own active Meta account with a `businessAccountId` first
   * (read through the egress policy), else the platform's. PROVIDER_UNAVAILABLE when there is none.
   */
  async whatsappTemplatesFor(organizationId: string): Promise<MetaTemplateListing[]> {
    const accounts = [...this.#built.values()].filter((b) => b.adapter?.vendor === 'meta-whatsapp' && b.adapter.messageTemplates);
    const chosen = accounts.find((b) => b.entry.config.organizationId === organizationId) ?? accounts.find((b) => b.entry.config.organizationId === null);
    if (!chosen) {
      throw new AppError('PROVIDER_UNAVAILABLE', 'No WhatsApp account can list templates: give the meta-whatsapp provider (or your own WhatsApp account) its businessAccountId setting');
    }
    return chosen.adapter!.messageTemplates!();
  }

  /** Loaded adapters of one vendor key. */
  adaptersOf(vendor: string): VendorAdapter[] {
    return [...this.#adapters.values()].filter((a) => a.vendor === vendor);
  }

  allAdapters(): VendorAdapter[] { return [...this.#adapters.values()]; }

  /** The loaded adapter whose own callback URL is `/providers/callbacks/<vendor>/<callbackId>`, or null (unknown, inactive, another vendor). */
  adapterByCallbackId(vendor: string, callbackId: string): VendorAdapter | null {
    for (const built of this.#built.values()) {
      if (built.adapter && built.entry.config.vendor === vendor && built.entry.config.callbackId === callbackId) return built.adapter;
    }
    return null;
  }

  /** Loaded adapters of the vendor of `adapter` with the same owner (the platform, or one organization): those that may share its vendor account. */
  sameOwnerAdapters(adapter: VendorAdapter): VendorAdapter[] {
    const owner = this.ownerOf(adapter);
    return [...this.#built.values()]
      .filter((b) => b.adapter !== null && b.adapter.vendor === adapter.vendor && b.entry.config.organizationId === owner)
      .map((b) => b.adapter!);
  }

  /** The organization whose own vendor account a loaded adapter serves (docs/providers.md), or null for the platform's. */
  ownerOf(adapter: VendorAdapter): string | null {
    for (const built of this.#built.values()) if (built.adapter === adapter) return built.entry.config.organizationId;
    return null;
  }

  /**
   * Meta's webhook verification handshake (GET with hub.mode=subscribe): the challenge to echo when the
   * verify token matches, else null. On an account's own URL (`callbackId`) only that account's
   * credentials.verifyToken counts; on the vendor-wide URL only the platform's providers' tokens (a
   * tenant's token never completes the platform's handshake).
   */
  webhookChallenge(vendor: string, callbackId: string | null, query: Record<string, unknown>): string | null {
    if (vendor !== 'meta-whatsapp') return null;
    for (const [providerId, token] of this.#verifyTokens) {
      const config = this.#built.get(providerId)?.entry.config;
      if (!config || config.vendor !== vendor) continue;
      if (callbackId === null ? config.organizationId !== null : config.callbackId !== callbackId) continue;
      const challenge = verifyChallenge(query, token);
      if (challenge !== null) return challenge;
    }
    return null;
  }

  /** Keeps routing current with checks recorded by other processes: reloads health every `intervalMs`. */
  startHealthRefresh(intervalMs: number): () => void {
    const timer = setInterval(() => {
      this.#repository.latestHealth().then((latest) => {
        for (const [id, check] of latest) this.directory.setHealth(id, check.ok);
      }).catch((error: unknown) => this.#logger.warn({ err: error }, 'provider health refresh failed'));
    }, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }
}

/**
 * At start: applies PROVIDERS_FILE when set (credentials written as "env:NAME" are read from the
 * environment), or seeds one outbox provider per channel on a fresh install so the embedded default
 * works without vendor accounts.
 */
export async function syncProviderConfiguration(repository: ProviderRepository, clock: Clock, config: Config, env: Record<string, string | undefined> = process.env): Promise<void> {
  const configure = new ConfigureProviders({ providers: repository, clock });
  if (config.providersFile) {
    const raw = JSON.parse(await readFile(config.providersFile, 'utf8')) as unknown;
    await configure.execute(resolveEnvReferences(raw, env));
    return;
  }
  if ((await repository.list()).length > 0) return;
  await configure.execute({ providers: VENDOR_CHANNELS.map((channel) => ({ name: `outbox-${channel.toLowerCase()}`, vendor: 'outbox', channel, priority: 1000, countries: ['*'] })) });
}

/** Replaces every "env:NAME" string with the variable's value; a missing variable is a configuration error. */
export function resolveEnvReferences(value: unknown, env: Record<string, string | undefined>): unknown {
  if (typeof value === 'string' && value.startsWith('env:')) {
    const name = value.slice(4);
    const resolved = env[name];
    if (resolved === undefined || resolved === '') throw new ConfigError([`PROVIDERS_FILE: environment variable ${name} is not set`]);
    return resolved;
  }
  if (Array.isArray(value)) return value.map((v) => resolveEnvReferences(v, env));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveEnvReferences(v, env)]));
  return value;
}
