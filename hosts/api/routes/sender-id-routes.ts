import { RequestSenderIdInput, type RequestSenderId } from '../../../core/use-cases/senders/request-sender-id.ts';
import type { ListSenderIds } from '../../../core/use-cases/senders/list-sender-ids.ts';
import type { DeleteSenderId } from '../../../core/use-cases/senders/delete-sender-id.ts';
import { ok, requireMember, requireTenant, type RouteDefinition } from '../route.ts';

export interface SenderIdRouteDeps {
  requestSenderId: RequestSenderId;
  listSenderIds: ListSenderIds;
  deleteSenderId: DeleteSenderId;
}

const DENIED = { 400: 'ORGANIZATION_REQUIRED', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN (the role lacks the permission)' };

/** Sender IDs (docs/sender-ids.md): tenants request them, platform administrators review them in /admin/approvals. */
export function senderIdRoutes(deps: SenderIdRouteDeps): RouteDefinition[] {
  return [
    {
      method: 'GET', path: '/sender-ids', tag: 'Sender IDs', summary: 'The organization\'s sender IDs with their review status, and its default sender',
      auth: 'tenant', permission: 'senders:read',
      responses: { 200: '{ items (at most 20, newest first), defaultSenderId, limit }', ...DENIED },
      handler: async (input) => ok(await deps.listSenderIds.execute(requireTenant(input))),
    },
    {
      method: 'POST', path: '/sender-ids', tag: 'Sender IDs', summary: 'Request a sender ID (reviewed by platform administrators; a rejected one is resubmitted)',
      auth: 'tenant', permission: 'senders:write', body: RequestSenderIdInput,
      responses: {
        201: 'The sender ID, status PENDING', ...DENIED, 400: 'VALIDATION_ERROR (name: 3-11 letters, digits or spaces with a letter; purpose; sampleMessage; networks)',
        409: 'SENDER_ID_EXISTS (pending or approved already)', 422: 'LIMIT_REACHED (20 per organization)',
      },
      handler: async (input) => ok(await deps.requestSenderId.execute(requireMember(input), input.body), 201),
    },
    {
      method: 'DELETE', path: '/sender-ids/:id', tag: 'Sender IDs', summary: 'Stop using a sender ID (clears the default sender when it was the default)',
      auth: 'tenant', permission: 'senders:write',
      responses: { 200: '{ id, deleted, defaultCleared }', ...DENIED, 404: 'NOT_FOUND (unknown id, or another organization\'s)' },
      handler: async (input) => ok(await deps.deleteSenderId.execute(requireMember(input), input.params['id'] ?? '')),
    },
  ];
}

