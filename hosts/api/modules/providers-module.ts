import type { Container } from 'inversify';
import { GetProvider } from '../../../core/use-cases/providers/get-provider.ts';
import { ListProviders } from '../../../core/use-cases/providers/list-providers.ts';
import { MESSAGING } from '../../messaging-bindings.ts';
import { providerRoutes } from '../routes/provider-routes.ts';
import { providerCallbackRoutes } from '../routes/provider-callback-routes.ts';
import { INFRA } from '../../tokens.ts';
import { API } from '../tokens.ts';

export function bindProvidersModule(container: Container): void {
  container.bind(API.routes).toResolvedValue(
    (providers, checkProviderHealth) => providerRoutes({
      listProviders: new ListProviders({ providers }), getProvider: new GetProvider({ providers }), checkProviderHealth,
    }),
    [MESSAGING.providerRepository, MESSAGING.checkProviderHealth]).inSingletonScope();
  container.bind(API.routes).toResolvedValue(
    (runtime, applyDeliveryReport, config, storage) => providerCallbackRoutes({
      adaptersOf: (vendor) => runtime.adaptersOf(vendor), applyDeliveryReport, publicUrl: config.publicUrl,
      webhookChallenge: (vendor, query) => runtime.webhookChallenge(vendor, query),
      findMessage: (provider, id) => storage.messageStatus.findByProviderRef(provider, id),
    }),
    [MESSAGING.runtime, MESSAGING.applyDeliveryReport, INFRA.config, INFRA.storage]).inSingletonScope();
}
