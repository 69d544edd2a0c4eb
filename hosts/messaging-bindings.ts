import { CachedLinkSettings } from '../adapters/cache/cached-tracked-links.ts';
import { RandomLinkCodes } from '../adapters/security/random-link-codes.ts';
import type { LinkTrackingDeps } from '../core/use-cases/links/link-tracking.ts';
import type { Container } from 'inversify';
import { ProviderTelemetry } from './provider-telemetry.ts';
import { CachedPricing } from '../adapters/cache/cached-pricing.ts';
import { SqlProviderRepository } from '../adapters/postgres/sql-provider-repository.ts';
import { AesGcmCredentialCipher } from '../adapters/security/aes-gcm-credential-cipher.ts';
import type { ProviderRepository } from '../core/ports/provider-repository.ts';
import type { ProviderDirectory } from '../core/ports/channel-provider.ts';
import type { PricingRepository } from '../core/ports/pricing-repository.ts';
import { DeliverMessage } from '../core/use-cases/messaging/deliver-message.ts';
import type { OwnAccountPricing } from '../core/use-cases/messaging/accept-messages.ts';
import { costPreview } from '../core/domain/pricing.ts';
import { AcceptCoalescer } from '../core/use-cases/messaging/accept-coalescer.ts';
import type { VerifyDeps } from '../core/use-cases/verify/verify-support.ts';
import { CheckCounter } from '../core/use-cases/verify/check-counter.ts';
import { MAX_CHECK_ATTEMPTS } from '../core/domain/verification.ts';
import { HmacPasscodes } from '../adapters/security/hmac-passcodes.ts';
import { HmacOptOutLinks } from '../adapters/security/hmac-opt-out-links.ts';
import type { OptOutLinkSigner } from '../core/ports/opt-out-links.ts';
import type { SendTiming } from '../core/use-cases/messaging/send-timing.ts';
import type { SendDeps } from '../core/use-cases/messaging/send-message.ts';
import { CachedSendWindows } from '../adapters/cache/cached-send-windows.ts';
import { CheckProviderHealth } from '../core/use-cases/providers/check-provider-health.ts';
import { ApplyDeliveryReport } from '../core/use-cases/messaging/apply-delivery-report.ts';
import type { FraudLimits } from '../core/use-cases/messaging/send-context.ts';
import { InAppInboxProvider, InAppProviderDirectory } from '../adapters/providers/in-app-provider.ts';
import type { Storage } from '../core/ports/storage.ts';
import type { IdGenerator } from '../core/ports/id-generator.ts';
import type { Clock } from '../core/ports/clock.ts';
import type { Config } from './config.ts';
import type { Logger } from './logger.ts';
import { ProviderRuntime } from './provider-runtime.ts';
import { traceCapture } from './tracing.ts';
import type { DeliveryTraceStore } from '../adapters/telemetry/delivery-trace-store.ts';
import { SqlDeliveryTraceStore } from '../adapters/postgres/sql-delivery-trace-store.ts';
import { INFRA, token } from './tokens.ts';
import { bindWebhooks, EGRESS, WEBHOOKS } from './webhook-bindings.ts';
import { bindRouting, ROUTING } from './routing-bindings.ts';

export const MESSAGING = {
  providerRepository: token<ProviderRepository>('messaging.ProviderRepository'),
  runtime: token<ProviderRuntime>('messaging.ProviderRuntime'),
  providers: token<ProviderDirectory>('messaging.ProviderDirectory'),
  telemetry: token<ProviderTelemetry>('messaging.ProviderTelemetry'),
  pricing: token<PricingRepository>('messaging.Pricing'),
  deliverMessage: token<DeliverMessage>('messaging.DeliverMessage'),
  ownAccountPricing: token<OwnAccountPricing | undefined>('messaging.OwnAccountPricing'),
  /** What the Verify use cases share (docs/verify.md), with their own group commit of passcode sends. */
  verifyDeps: token<VerifyDeps>('messaging.VerifyDeps'),
  checkProviderHealth: token<CheckProviderHealth>('messaging.CheckProviderHealth'),
  applyDeliveryReport: token<ApplyDeliveryReport>('messaging.ApplyDeliveryReport'),
  fraudLimits: token<FraudLimits>('messaging.FraudLimits'),
  /** Opt-out link tokens and addresses (docs/consent.md). */
  optOutLinks: token<OptOutLinkSigner>('messaging.OptOutLinks'),
  /** Send windows and quiet hours of the send path (docs/consent.md). */
  sendTiming: token<SendTiming>('messaging.SendTiming'),
  /**
   * What every use case that sends through the pipeline shares (sends, bulk sends, event triggers and
   * their fallback steps): one binding, so no path misses the own-account price, opt-out links, send
   * windows or the low-balance alert.
   */
  sendDeps: token<SendDeps>('messaging.SendDeps'),
  /** Trace contexts of vendor calls, for delivery reports (used only with tracing on; docs/observability.md). */
  deliveryTraces: token<DeliveryTraceStore>('messaging.DeliveryTraces'),
  /** Tracked links of the send pipeline (docs/links.md). */
  linkTracking: token<LinkTrackingDeps>('messaging.LinkTracking'),
} as const;

/** Adapters allowed to be swapped (tests use recording providers). */
export interface MessagingOverrides {
  providers?: ProviderDirectory;
  /** Share one provider runtime (breakers, rate limits) between the API and worker of one process. */
  runtime?: ProviderRuntime;
  /** With `runtime`: the telemetry that runtime reports to (one set of provider metrics per process). */
  telemetry?: ProviderTelemetry;
}

/**
 * What both hosts need to deliver messages: providers, pricing, the delivery use case. After building
 * the container, call `loadProviders(container)` so the runtime holds the configured vendor adapters.
 */
export function bindMessaging(container: Container, config: Config, logger: Logger, overrides: MessagingOverrides = {}): void {
  bindWebhooks(container, config);
  bindRouting(container, config, logger);
  container.bind(MESSAGING.optOutLinks).toConstantValue(new HmacOptOutLinks(config.encryptionKey, config.publicUrl));
  container.bind(MESSAGING.linkTracking).toResolvedValue((storage) => ({
    enabled: config.linkTracking, settings: new CachedLinkSettings(storage.linkSettings), codes: new RandomLinkCodes(), platformBase: config.linkBaseUrl,
    untracked: [`${config.publicUrl}/u/`, `${config.publicUrl}/l/`],
  }), [INFRA.storage]).inSingletonScope();
  container.bind(MESSAGING.sendTiming).toConstantValue({ windows: new CachedSendWindows(), enforceWindows: config.sendWindows });
  container.bind(MESSAGING.providerRepository).toResolvedValue(
    (database, ids) => new SqlProviderRepository(database, new AesGcmCredentialCipher(config.encryptionKey), ids), [INFRA.database, INFRA.ids]).inSingletonScope();
  if (overrides.runtime) container.bind(MESSAGING.runtime).toConstantValue(overrides.runtime);
  else container.bind(MESSAGING.runtime).toResolvedValue((repository, telemetry, egress, traces) => new ProviderRuntime(repository, config, logger, telemetry, egress, traces),
    [MESSAGING.providerRepository, MESSAGING.telemetry, EGRESS, MESSAGING.deliveryTraces]).inSingletonScope();
  container.bind(MESSAGING.deliveryTraces).toResolvedValue((database) => new SqlDeliveryTraceStore(database), [INFRA.database]).inSingletonScope();
  container.bind(MESSAGING.telemetry).toConstantValue(overrides.telemetry ?? new ProviderTelemetry(logger));
  // IN_APP is delivered by the inbox itself (docs/inbox.md), whatever vendor directory is in use.
  const inApp = (inner: ProviderDirectory, storage: Storage, ids: IdGenerator, clock: Clock) => new InAppProviderDirectory(inner, new InAppInboxProvider({ storage, ids, clock }));
  if (overrides.providers) {
    const injected = overrides.providers;
    container.bind(MESSAGING.providers).toResolvedValue((storage, ids, clock) => inApp(injected, storage, ids, clock), [INFRA.storage, INFRA.ids, INFRA.clock]).inSingletonScope();
  } else {
    container.bind(MESSAGING.providers).toResolvedValue((runtime, storage, ids, clock, router) => {
      if (config.networkRouting) runtime.directory.useNetworkOrdering(router); // network routes and learning on top of the country order (docs/routing.md)
      return inApp(runtime.directory, storage, ids, clock);
    }, [MESSAGING.runtime, INFRA.storage, INFRA.ids, INFRA.clock, ROUTING.router]).inSingletonScope();
  }
  container.bind(MESSAGING.pricing).toResolvedValue((storage) => new CachedPricing(() => storage.pricing), [INFRA.storage]).inSingletonScope();
  container.bind(MESSAGING.fraudLimits).toConstantValue({
    recipientPerHour: config.fraudRecipientPerHour, newTenantDays: config.fraudNewTenantDays, newTenantPerHour: config.fraudNewTenantPerHour,
  });
  container.bind(MESSAGING.checkProviderHealth).toResolvedValue((providers, runtime, ids, clock, rateLimiter) => new CheckProviderHealth({
    providers, ids, clock, rateLimiter, run: (id) => runtime.runHealthCheck(id), onChecked: (id, ok) => runtime.directory.setHealth(id, ok),
  }), [MESSAGING.providerRepository, MESSAGING.runtime, INFRA.ids, INFRA.clock, INFRA.rateLimiter]).inSingletonScope();
  container.bind(MESSAGING.applyDeliveryReport).toResolvedValue((storage, clock, ids, webhooks, router) => new ApplyDeliveryReport({ storage, clock, ids, webhooks, routes: router, networks: router }),
    [INFRA.storage, INFRA.clock, INFRA.ids, WEBHOOKS.subscriptions, ROUTING.router]).inSingletonScope();
  container.bind(MESSAGING.ownAccountPricing).toResolvedValue((providers) => {
    const { ownsRoute } = providers;
    return ownsRoute ? { routes: { ownsRoute: ownsRoute.bind(providers) }, fee: config.ownAccountFee } : undefined;
  }, [MESSAGING.providers]).inSingletonScope();
  // Passcode messages are stored masked; their clear text travels sealed to delivery (docs/adr/0035-sealed-passcode-messages.md).
  const sealer = new AesGcmCredentialCipher(config.encryptionKey);
  container.bind(MESSAGING.verifyDeps).toResolvedValue((storage, pricing, clock, ids, rateLimiter, fraud, ownAccounts, timing) => ({
    storage, pricing, clock, ids, rateLimiter, passcodes: new HmacPasscodes(config.encryptionKey), sealer,
    coalescer: new AcceptCoalescer({ storage, clock, ids, fraud, lowBalanceThreshold: config.lowBalanceThreshold, ownAccounts, timing, traces: traceCapture() }),
    checkCounter: new CheckCounter({ storage, clock, maxAttempts: MAX_CHECK_ATTEMPTS }),
  }), [INFRA.storage, MESSAGING.pricing, INFRA.clock, INFRA.ids, INFRA.rateLimiter, MESSAGING.fraudLimits, MESSAGING.ownAccountPricing, MESSAGING.sendTiming]).inSingletonScope();
  container.bind(MESSAGING.sendDeps).toResolvedValue(
    (storage, pricing, clock, ids, secrets, fraud, deliver, ownAccounts, optOutLinks, timing, router, lookups, linkTracking): SendDeps => ({
      storage, pricing, clock, ids, secrets, fraud, deliverNow: (id) => deliver.execute(id), lowBalanceThreshold: config.lowBalanceThreshold, ownAccounts, optOutLinks, timing,
      traces: traceCapture(), // undefined with tracing off
      ...(config.networkRouting ? { networks: router, lookups } : { networks: NO_NETWORKS }),
      linkTracking, linkRetentionMonths: config.retention.messagesMonths,
    }),
    [INFRA.storage, MESSAGING.pricing, INFRA.clock, INFRA.ids, INFRA.secrets, MESSAGING.fraudLimits, MESSAGING.deliverMessage, MESSAGING.ownAccountPricing,
      MESSAGING.optOutLinks, MESSAGING.sendTiming, ROUTING.router, ROUTING.sendLookups, MESSAGING.linkTracking]).inSingletonScope();
  container.bind(MESSAGING.deliverMessage).toResolvedValue(
    (storage, providers, clock, ids, webhooks, pricing, optOutLinks, buckets, limits, router, lookups) => new DeliverMessage({
      storage, optOutLinks, providers, sealer, clock, ids, maxAttempts: config.deliveryMaxAttempts, leaseSeconds: deliveryLeaseSeconds(config), webhooks,
      platformPrice: async (message) => costPreview(await pricing.listActive(), message.channel, message.country, message.body, message.network ?? null)?.price ?? message.cost,
      pacing: { buckets, limits }, traces: traceCapture(), ...(config.networkRouting ? { routes: router, networks: router } : {}),
      // Paid lookups of bulk sends, campaigns, triggers and workflows happen here, in each message's own delivery job (docs/routing.md).
      ...(config.networkRouting && lookups ? { lookups: { ...lookups,
        priceFor: async (message, network) => costPreview(await pricing.listActive(), message.channel, message.country, message.body, network)?.price ?? null } } : {}),
    }),
    [INFRA.storage, MESSAGING.providers, INFRA.clock, INFRA.ids, WEBHOOKS.subscriptions, MESSAGING.pricing, MESSAGING.optOutLinks, INFRA.rateBuckets, INFRA.deliveryLimits,
      ROUTING.router, ROUTING.sendLookups]).inSingletonScope();
}

/** Loads the configured providers into the process (unless a test injected its own directory). */
export async function loadProviders(container: Container): Promise<void> {
  await container.get(MESSAGING.runtime).reload();
  await container.get(ROUTING.sync).refresh();
}

/**
 * How long a delivery attempt holds its message: long enough for one attempt through three providers
 * timing out one after the other, short enough that a message whose worker died is taken over within a
 * minute (the lease plus one recovery sweep; docs/messaging.md). 35 s with the default 10 s timeout.
 */
export function deliveryLeaseSeconds(config: Pick<Config, 'providerTimeoutMs'>): number {
  return Math.max(30, Math.ceil((3 * config.providerTimeoutMs) / 1000) + 5);
}

/** NETWORK_ROUTING=off: no number has a network. */
const NO_NETWORKS = { known: () => null };

/** How often each process checks whether providers changed elsewhere (docs/providers.md: changes apply within seconds). */
export const PROVIDER_CONFIG_WATCH_MS = 2_000;
