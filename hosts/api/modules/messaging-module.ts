import type { Container } from 'inversify';
import { CancelScheduledMessage } from '../../../core/use-cases/messaging/cancel-scheduled-message.ts';
import { GetMessage } from '../../../core/use-cases/messaging/get-message.ts';
import { SendBulkMessages } from '../../../core/use-cases/messaging/send-bulk-messages.ts';
import { SendMessage } from '../../../core/use-cases/messaging/send-message.ts';
import { MESSAGING } from '../../messaging-bindings.ts';
import { messageRoutes } from '../routes/message-routes.ts';
import { API } from '../tokens.ts';
import { WEBHOOKS } from '../../webhook-bindings.ts';

export function bindMessagingModule(container: Container): void {
  container.bind(API.routes).toResolvedValue(
    (deps, metrics, webhooks) => messageRoutes({
      sendMessage: new SendMessage(deps), sendBulk: new SendBulkMessages(deps), getMessage: new GetMessage({ storage: deps.storage }),
      cancelScheduled: new CancelScheduledMessage({ storage: deps.storage, clock: deps.clock, ids: deps.ids, webhooks }),
      onSent: (channel, status) => metrics.sends.inc({ channel, status }),
    }),
    [MESSAGING.sendDeps, API.metrics, WEBHOOKS.subscriptions]).inSingletonScope();
}
