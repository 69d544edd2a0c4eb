import type { Container } from 'inversify';
import { GetConversation } from '../../../core/use-cases/conversations/get-conversation.ts';
import { ListConversations } from '../../../core/use-cases/conversations/list-conversations.ts';
import { AssignInboundNumber } from '../../../core/use-cases/conversations/assign-inbound-number.ts';
import { CreateKeyword } from '../../../core/use-cases/conversations/create-keyword.ts';
import { DeleteKeyword } from '../../../core/use-cases/conversations/delete-keyword.ts';
import { ListInboundNumbers } from '../../../core/use-cases/conversations/list-inbound-numbers.ts';
import { ListKeywords } from '../../../core/use-cases/conversations/list-keywords.ts';
import { RemoveInboundNumber } from '../../../core/use-cases/conversations/remove-inbound-number.ts';
import { MarkConversationRead } from '../../../core/use-cases/conversations/mark-conversation-read.ts';
import { ReplyToConversation } from '../../../core/use-cases/conversations/reply-to-conversation.ts';
import type { SendDeps } from '../../../core/use-cases/messaging/send-message.ts';
import { MESSAGING } from '../../messaging-bindings.ts';
import { INFRA } from '../../tokens.ts';
import { conversationRoutes } from '../routes/conversation-routes.ts';
import { API } from '../tokens.ts';

/** Conversations (docs/conversations.md); the inbound callbacks themselves are in the providers module. */
export function bindConversationsModule(container: Container): void {
  container.bind(API.routes).toResolvedValue(
    (storage, pricing, clock, ids, secrets, fraud, deliver, config, ownAccounts) => {
      const deps: SendDeps = { storage, pricing, clock, ids, secrets, fraud, deliverNow: (id) => deliver.execute(id), lowBalanceThreshold: config.lowBalanceThreshold, ownAccounts };
      return conversationRoutes({
        listConversations: new ListConversations({ storage, clock }), getConversation: new GetConversation({ storage, clock }),
        reply: new ReplyToConversation(deps), markRead: new MarkConversationRead({ storage, clock }),
        listKeywords: new ListKeywords({ storage }), createKeyword: new CreateKeyword({ storage, ids, clock }), deleteKeyword: new DeleteKeyword({ storage }),
        listInboundNumbers: new ListInboundNumbers({ storage }), assignInboundNumber: new AssignInboundNumber({ storage, ids, clock }),
        removeInboundNumber: new RemoveInboundNumber({ storage, ids, clock }),
      });
    },
    [INFRA.storage, MESSAGING.pricing, INFRA.clock, INFRA.ids, INFRA.secrets, MESSAGING.fraudLimits, MESSAGING.deliverMessage, INFRA.config, MESSAGING.ownAccountPricing]).inSingletonScope();
}
