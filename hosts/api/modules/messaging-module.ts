import type { Container } from 'inversify';
import { GetMessage } from '../../../core/use-cases/messaging/get-message.ts';
import { SendBulkMessages } from '../../../core/use-cases/messaging/send-bulk-messages.ts';
import { SendMessage, type SendDeps } from '../../../core/use-cases/messaging/send-message.ts';
import { MESSAGING } from '../../messaging-bindings.ts';
import { INFRA } from '../../tokens.ts';
import { messageRoutes } from '../routes/message-routes.ts';
import { API } from '../tokens.ts';

export function bindMessagingModule(container: Container): void {
  container.bind(API.routes).toResolvedValue(
    (storage, pricing, clock, ids, secrets, fraud, deliver, metrics, config, ownAccounts) => {
      const deps: SendDeps = { storage, pricing, clock, ids, secrets, fraud, deliverNow: (id) => deliver.execute(id), lowBalanceThreshold: config.lowBalanceThreshold, ownAccounts };
      return messageRoutes({
        sendMessage: new SendMessage(deps), sendBulk: new SendBulkMessages(deps), getMessage: new GetMessage({ storage }),
        onSent: (channel, status) => metrics.sends.inc({ channel, status }),
      });
    },
    [INFRA.storage, MESSAGING.pricing, INFRA.clock, INFRA.ids, INFRA.secrets, MESSAGING.fraudLimits, MESSAGING.deliverMessage, API.metrics, INFRA.config, MESSAGING.ownAccountPricing]).inSingletonScope();
}
