import { AppError } from '../../../core/errors.ts';
import type { GetMessage } from '../../../core/use-cases/messaging/get-message.ts';
import { SendBulkInput, type SendBulkMessages } from '../../../core/use-cases/messaging/send-bulk-messages.ts';
import type { SendContext } from '../../../core/use-cases/messaging/send-context.ts';
import { SendMessageInput, type SendMessage } from '../../../core/use-cases/messaging/send-message.ts';
import { ok, requireTenant, type RequestInput, type RouteDefinition } from '../route.ts';

export interface MessageRouteDeps {
  sendMessage: SendMessage;
  sendBulk: SendBulkMessages;
  getMessage: GetMessage;
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
      responses: { 201: 'Sent synchronously: the delivery log with its resulting status', 202: 'Queued (async)', 400: 'VALIDATION_ERROR',
        402: 'INSUFFICIENT_BALANCE', 422: 'IDEMPOTENCY_KEY_REUSED or TEMPLATE_NOT_APPROVED' },
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
      responses: { 201: 'Sent synchronously: one delivery log per message', 202: 'Queued (async)', 400: 'VALIDATION_ERROR (0 or more than 100 messages, or an invalid item)',
        402: 'INSUFFICIENT_BALANCE', 422: 'IDEMPOTENCY_KEY_REUSED or TEMPLATE_NOT_APPROVED' },
      handler: async (input) => {
        const result = await deps.sendBulk.execute(sendContext(input), input.body);
        if (result.replayed) input.koa.set('Idempotent-Replayed', 'true');
        for (const log of result.logs) deps.onSent?.(String(log['channel']), String(log['status']));
        return ok(result.logs, result.queued ? 202 : 201);
      },
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
