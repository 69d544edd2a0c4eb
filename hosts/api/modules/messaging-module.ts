import type { Container } from 'inversify';
import { CancelScheduledMessage } from '../../../core/use-cases/messaging/cancel-scheduled-message.ts';
import { GetMessage } from '../../../core/use-cases/messaging/get-message.ts';
import { SendBulkMessages } from '../../../core/use-cases/messaging/send-bulk-messages.ts';
import { SendMessage, type SendDeps } from '../../../core/use-cases/messaging/send-message.ts';
import { MESSAGING } from '../../messaging-bindings.ts';
import { INFRA } from '../../tokens.ts';
import { messageRoutes } from '../routes/message-routes.ts';
import { API } from '../tokens.ts';
import { WEBHOOKS } from '../../webhook-bindings.ts';

export function bindMessagingModule(container: Container): void {
  container.bind(API.routes).toResolvedValue(
    (storage, pricing, clock, ids, secrets, fraud, deliver, metrics, config, ownAccounts, webhooks, optOutLinks, timing) => {
      const deps: SendDeps = { storage, pricing, clock, ids, secrets, fraud, deliverNow: (id) => deliver.execute(id), lowBalanceThreshold: config.lowBalanceThreshold, ownAccounts, optOutLinks, timing };
      return messageRoutes({
        sendMessage: new SendMessage(deps), sendBulk: new SendBulkMessages(deps), getMessage: new GetMessage({ storage }),
        cancelScheduled: new CancelScheduledMessage({ storage, clock, ids, webhooks }),
        onSent: (channel, status) => metrics.sends.inc({ channel, status }),
      });
    },
    [INFRA.storage, MESSAGING.pricing, INFRA.clock, INFRA.ids, INFRA.secrets, MESSAGING.fraudLimits, MESSAGING.deliverMessage, API.metrics, INFRA.config, MESSAGING.ownAccountPricing, WEBHOOKS.subscriptions, MESSAGING.optOutLinks, MESSAGING.sendTiming]).inSingletonScope();
}
