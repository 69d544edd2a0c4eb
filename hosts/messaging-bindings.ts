import path from 'node:path';
import type { Container } from 'inversify';
import { CachedPricing } from '../adapters/cache/cached-pricing.ts';
import { OutboxProvider } from '../adapters/providers/outbox-provider.ts';
import { SandboxProvider } from '../adapters/providers/sandbox-provider.ts';
import { StaticProviderDirectory } from '../adapters/providers/static-provider-directory.ts';
import { CHANNELS } from '../core/domain/channel.ts';
import type { ProviderDirectory } from '../core/ports/channel-provider.ts';
import type { PricingRepository } from '../core/ports/pricing-repository.ts';
import { DeliverMessage } from '../core/use-cases/messaging/deliver-message.ts';
import type { FraudLimits } from '../core/use-cases/messaging/send-context.ts';
import type { Config } from './config.ts';
import { INFRA, token } from './tokens.ts';

export const MESSAGING = {
  providers: token<ProviderDirectory>('messaging.ProviderDirectory'),
  pricing: token<PricingRepository>('messaging.Pricing'),
  deliverMessage: token<DeliverMessage>('messaging.DeliverMessage'),
  fraudLimits: token<FraudLimits>('messaging.FraudLimits'),
} as const;

/** Adapters allowed to be swapped (tests use recording providers). */
export interface MessagingOverrides {
  providers?: ProviderDirectory;
}

/** What both hosts need to deliver messages: providers, pricing, the delivery use case. */
export function bindMessaging(container: Container, config: Config, overrides: MessagingOverrides = {}): void {
  const outbox = path.join(config.dataDir, 'outbox');
  container.bind(MESSAGING.providers).toConstantValue(overrides.providers ?? new StaticProviderDirectory(
    CHANNELS.map((channel) => new OutboxProvider(channel, outbox)),
    CHANNELS.map((channel) => new SandboxProvider(channel)),
  ));
  container.bind(MESSAGING.pricing).toResolvedValue((storage) => new CachedPricing(() => storage.pricing), [INFRA.storage]).inSingletonScope();
  container.bind(MESSAGING.fraudLimits).toConstantValue({
    recipientPerHour: config.fraudRecipientPerHour, newTenantDays: config.fraudNewTenantDays, newTenantPerHour: config.fraudNewTenantPerHour,
  });
  container.bind(MESSAGING.deliverMessage).toResolvedValue(
    (storage, providers, clock) => new DeliverMessage({ storage, providers, clock, maxAttempts: config.deliveryMaxAttempts, leaseSeconds: 60 }),
    [INFRA.storage, MESSAGING.providers, INFRA.clock]).inSingletonScope();
}
