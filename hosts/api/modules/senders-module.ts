import type { Container } from 'inversify';
import { DeleteSenderId } from '../../../core/use-cases/senders/delete-sender-id.ts';
import { ListSenderIds } from '../../../core/use-cases/senders/list-sender-ids.ts';
import { RequestSenderId } from '../../../core/use-cases/senders/request-sender-id.ts';
import { INFRA } from '../../tokens.ts';
import { senderIdRoutes } from '../routes/sender-id-routes.ts';
import { API } from '../tokens.ts';

/** Sender IDs: requested by tenants, decided through the approvals flow (admin module). */
export function bindSendersModule(container: Container): void {
  container.bind(API.routes).toResolvedValue(
    (storage, ids, clock) => senderIdRoutes({
      requestSenderId: new RequestSenderId({ storage, ids, clock }),
      listSenderIds: new ListSenderIds({ storage }),
      deleteSenderId: new DeleteSenderId({ storage, ids, clock }),
    }),
    [INFRA.storage, INFRA.ids, INFRA.clock]).inSingletonScope();
}
