import { AppError } from '../../../core/errors.ts';
import { CancelManyInput, type CancelScheduledMessage } from '../../../core/use-cases/messaging/cancel-scheduled-message.ts';
import type { GetMessage } from '../../../core/use-cases/messaging/get-message.ts';
import { SendBulkInput, type SendBulkMessages } from '../../../core/use-cases/messaging/send-bulk-messages.ts';
import type { SendContext } from '../../../core/use-cases/messaging/send-context.ts';
import { SendMessageInput, type SendMessage } from '../../../core/use-cases/messaging/send-message.ts';
import { ok, requireTenant, type RequestInput, type RouteDefinition } from '../route.ts';

export interface MessageRouteDeps {
  sendMessage: SendMessage;
  sendBulk: SendBulkMessages;
  getMessage: GetMessage;
  cancelScheduled: CancelScheduledMessage;
  onSent?: (channel: string, status: string) => void;
}

/** The sender from the authenticated principal: an API key (sandbox or live) or a dashboard user (live). */
export function sendContext(input: RequestInput): SendContext {
  const tenant = requireTenant(input);
  return {
    organizationId: tenant.organizationId, userId: tenant.userId,
    apiKeyId: tenant.apiKey?.id ?? null, isSandbox: tenant.apiKey?.isSandbox ?? false,
  };
}

export function messageRoutes(deps: MessageRouteDeps): RouteDefinition[] {
  return [
    {
      method: 'POST', path: '/messages/send', tag: 'Messages', summary: 'Send one message (sync by default; async: true queues it)',
      auth: 'tenant-or-api-key', permission: 'messages:send', apiKeyScope: 'messages:send', body: SendMessageInput,
      responses: { 201: 'Sent synchronously: the delivery log with its resulting status', 202: 'Queued (async), or SCHEDULED (a future sendAt)', 400: 'VALIDATION_ERROR (sendAt more than 35 days ahead included)',
        402: 'INSUFFICIENT_BALANCE', 422: 'IDEMPOTENCY_KEY_REUSED, TEMPLATE_NOT_APPROVED or WHATSAPP_WINDOW_CLOSED' },
      handler: async (input) => {
        const result = await deps.sendMessage.execute(sendContext(input), input.body);
        if (result.replayed) input.koa.set('Idempotent-Replayed', 'true');
        deps.onSent?.(String(result.log['channel']), String(result.log['status']));
        return ok(result.log, result.queued ? 202 : 201);
      },
    },
    {
      method: 'POST', path: '/messages/bulk', tag: 'Messages', summary: 'Send 1-100 messages in one request',
      auth: 'tenant-or-api-key', permission: 'messages:send', apiKeyScope: 'messages:send', body: SendBulkInput,
      responses: { 201: 'Sent synchronously: one delivery log per message', 202: 'Queued (async), or nothing delivered inline and some message SCHEDULED (a future sendAt)',
        400: 'VALIDATION_ERROR (0 or more than 100 messages, an invalid item, a sendAt more than 35 days ahead)',
        402: 'INSUFFICIENT_BALANCE', 422: 'IDEMPOTENCY_KEY_REUSED, TEMPLATE_NOT_APPROVED or WHATSAPP_WINDOW_CLOSED' },
      handler: async (input) => {
        const result = await deps.sendBulk.execute(sendContext(input), input.body);
        if (result.replayed) input.koa.set('Idempotent-Replayed', 'true');
        for (const log of result.logs) deps.onSent?.(String(log['channel']), String(log['status']));
        return ok(result.logs, result.queued ? 202 : 201);
      },
    },
    {
      method: 'POST', path: '/messages/:id/cancel', tag: 'Messages', summary: 'Cancel a SCHEDULED message before its time (refunded)',
      auth: 'tenant-or-api-key', permission: 'messages:send', apiKeyScope: 'messages:send',
      responses: { 200: 'The delivery log, CANCELLED (its cost refunded to the wallet)', 404: 'NOT_FOUND (unknown id, or a message of another organization)',
        409: 'CONFLICT (not SCHEDULED: already released, delivered, failed, rejected or cancelled; details.status)' },
      handler: async (input) => ok(await deps.cancelScheduled.execute(requireTenant(input).organizationId, input.params['id'] ?? '')),
    },
    {
      method: 'POST', path: '/messages/cancel', tag: 'Messages', summary: 'Cancel up to 100 SCHEDULED messages (e.g. a bulk request\'s), each on its own',
      auth: 'tenant-or-api-key', permission: 'messages:send', apiKeyScope: 'messages:send', body: CancelManyInput,
      responses: { 200: 'One outcome per id, in order: `{ id, cancelled: true, log }` or `{ id, cancelled: false, error: { code: NOT_FOUND | CONFLICT, ... } }`',
        400: 'VALIDATION_ERROR (no ids, or more than 100)' },
      handler: async (input) => ok(await deps.cancelScheduled.executeMany(requireTenant(input).organizationId, input.body)),
    },
    {
      method: 'GET', path: '/messages/:id', tag: 'Messages', summary: 'One message\'s delivery log',
      auth: 'tenant-or-api-key', permission: 'messages:read', apiKeyScope: 'messages:read',
      responses: { 200: 'Delivery log', 404: 'NOT_FOUND' },
      handler: async (input) => {
        const id = input.params['id'] ?? '';
        if (id.length > 64) throw new AppError('NOT_FOUND', 'Message not found');
        return ok(await deps.getMessage.execute(requireTenant(input).organizationId, id));
      },
    },
  ];
}
