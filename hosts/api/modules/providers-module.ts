import type { Container } from 'inversify';
import { CreateProvider } from '../../../core/use-cases/providers/create-provider.ts';
import { DeleteProvider } from '../../../core/use-cases/providers/delete-provider.ts';
import { GetProvider } from '../../../core/use-cases/providers/get-provider.ts';
import type { ProviderAdminDeps } from '../../../core/use-cases/providers/provider-admin.ts';
import { UpdateProvider } from '../../../core/use-cases/providers/update-provider.ts';
import { SendProviderTestMessage } from '../../../core/use-cases/providers/send-provider-test-message.ts';
import { GetProviderMetrics } from '../../../core/use-cases/providers/get-provider-metrics.ts';
import { SqlProviderMetricsRepository } from '../../../adapters/postgres/sql-provider-metrics-repository.ts';
import { adminProviderRoutes } from '../routes/admin-provider-routes.ts';
import { ListProviders } from '../../../core/use-cases/providers/list-providers.ts';
import { MESSAGING } from '../../messaging-bindings.ts';
import { providerRoutes } from '../routes/provider-routes.ts';
import { providerCallbackRoutes } from '../routes/provider-callback-routes.ts';
import { INFRA } from '../../tokens.ts';
import { WEBHOOKS } from '../../webhook-bindings.ts';
import { ReceiveInboundMessages } from '../../../core/use-cases/conversations/receive-inbound-messages.ts';
import { ReplyToConversation } from '../../../core/use-cases/conversations/reply-to-conversation.ts';
import { API } from '../tokens.ts';
import { traceReports } from '../report-tracing.ts';
import { tracingOn } from '../../../adapters/telemetry/tracing.ts';

export function bindProvidersModule(container: Container): void {
  container.bind(API.routes).toResolvedValue((providers, runtime, storage, ids, clock, database) => {
    const deps: ProviderAdminDeps = {
      providers, storage, ids, clock, check: (config, credentials) => runtime.check(config, credentials), onChanged: () => runtime.reload(),
    };
    return adminProviderRoutes({
      createProvider: new CreateProvider(deps), updateProvider: new UpdateProvider(deps), deleteProvider: new DeleteProvider(deps),
      sendTestMessage: new SendProviderTestMessage({ providers, storage, ids, clock, send: (id, message) => runtime.sendThrough(id, message) }),
      getProviderMetrics: new GetProviderMetrics({ metrics: new SqlProviderMetricsRepository(database), providers, clock, circuitOf: (id) => runtime.circuitOf(id) }),
    });
  }, [MESSAGING.providerRepository, MESSAGING.runtime, INFRA.storage, INFRA.ids, INFRA.clock, INFRA.database]).inSingletonScope();
  container.bind(API.routes).toResolvedValue(
    (providers, checkProviderHealth) => providerRoutes({
      listProviders: new ListProviders({ providers }), getProvider: new GetProvider({ providers }), checkProviderHealth,
    }),
    [MESSAGING.providerRepository, MESSAGING.checkProviderHealth]).inSingletonScope();
  container.bind(API.routes).toResolvedValue(
    (runtime, applyDeliveryReport, config, storage, clock, ids, webhooks, pricing, secrets, fraud, deliver, ownAccounts, metrics, deliveryTraces) => providerCallbackRoutes({
      traceReport: tracingOn() ? traceReports(deliveryTraces) : undefined,
      adapterByCallbackId: (vendor, callbackId) => runtime.adapterByCallbackId(vendor, callbackId),
      platformAdaptersOf: (vendor) => runtime.adaptersOf(vendor).filter((a) => runtime.ownerOf(a) === null),
      sameOwnerAdapters: (adapter) => runtime.sameOwnerAdapters(adapter), applyDeliveryReport, publicUrl: config.publicUrl,
      webhookChallenge: (vendor, callbackId, query) => runtime.webhookChallenge(vendor, callbackId, query),
      findMessage: async (providers, id) => {
        for (const provider of providers) {
          const message = await storage.messageStatus.findByProviderRef(provider, id);
          if (message) return message;
        }
        return null;
      },
      inbound: {
        receive: new ReceiveInboundMessages({ storage, clock, ids, webhooks }), ownerOf: (adapter) => runtime.ownerOf(adapter),
        reply: new ReplyToConversation({ storage, pricing, clock, ids, secrets, fraud, deliverNow: (id) => deliver.execute(id), lowBalanceThreshold: config.lowBalanceThreshold, ownAccounts }),
        count: (outcome, vendor, n) => metrics.inbound.inc({ outcome, vendor }, n),
      },
    }),
    [MESSAGING.runtime, MESSAGING.applyDeliveryReport, INFRA.config, INFRA.storage, INFRA.clock, INFRA.ids, WEBHOOKS.subscriptions, MESSAGING.pricing, INFRA.secrets,
      MESSAGING.fraudLimits, MESSAGING.deliverMessage, MESSAGING.ownAccountPricing, API.metrics, MESSAGING.deliveryTraces]).inSingletonScope();
}
