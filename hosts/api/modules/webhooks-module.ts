import type { Container } from 'inversify';
import { CreateWebhookEndpoint } from '../../../core/use-cases/webhooks/create-webhook-endpoint.ts';
import { DeleteWebhookEndpoint } from '../../../core/use-cases/webhooks/delete-webhook-endpoint.ts';
import { ListWebhookDeliveries } from '../../../core/use-cases/webhooks/list-webhook-deliveries.ts';
import { ListWebhookEndpoints } from '../../../core/use-cases/webhooks/list-webhook-endpoints.ts';
import { ReplayWebhookDelivery } from '../../../core/use-cases/webhooks/replay-webhook-delivery.ts';
import { RotateWebhookSecret } from '../../../core/use-cases/webhooks/rotate-webhook-secret.ts';
import { TestWebhookEndpoint } from '../../../core/use-cases/webhooks/test-webhook-endpoint.ts';
import { UpdateWebhookEndpoint } from '../../../core/use-cases/webhooks/update-webhook-endpoint.ts';
import { INFRA } from '../../tokens.ts';
import { WEBHOOKS } from '../../webhook-bindings.ts';
import { webhookRoutes } from '../routes/webhook-routes.ts';
import { API } from '../tokens.ts';

/** Webhook endpoints: registration, test sends, secret rotation, delivery history and replays. */
export function bindWebhooksModule(container: Container): void {
  container.bind(API.routes).toResolvedValue(
    (storage, ids, clock, secrets, cipher, sender, subscriptions, attemptDeps) => webhookRoutes({
      createWebhookEndpoint: new CreateWebhookEndpoint({ storage, ids, clock, secrets, cipher, sender, subscriptions }),
      listWebhookEndpoints: new ListWebhookEndpoints({ storage }),
      updateWebhookEndpoint: new UpdateWebhookEndpoint({ storage, clock, sender, subscriptions }),
      deleteWebhookEndpoint: new DeleteWebhookEndpoint({ storage, clock, subscriptions }),
      testWebhookEndpoint: new TestWebhookEndpoint({ ...attemptDeps, ids }),
      rotateWebhookSecret: new RotateWebhookSecret({ storage, clock, secrets, cipher }),
      listWebhookDeliveries: new ListWebhookDeliveries({ storage }),
      replayWebhookDelivery: new ReplayWebhookDelivery({ storage, clock }),
    }),
    [INFRA.storage, INFRA.ids, INFRA.clock, INFRA.secrets, WEBHOOKS.cipher, WEBHOOKS.sender, WEBHOOKS.subscriptions, WEBHOOKS.attemptDeps]).inSingletonScope();
}
