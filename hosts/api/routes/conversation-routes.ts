import { AssignInboundNumberInput, type AssignInboundNumber } from '../../../core/use-cases/conversations/assign-inbound-number.ts';
import { CreateKeywordInput, type CreateKeyword } from '../../../core/use-cases/conversations/create-keyword.ts';
import type { DeleteKeyword } from '../../../core/use-cases/conversations/delete-keyword.ts';
import type { ListInboundNumbers } from '../../../core/use-cases/conversations/list-inbound-numbers.ts';
import type { ListKeywords } from '../../../core/use-cases/conversations/list-keywords.ts';
import type { RemoveInboundNumber } from '../../../core/use-cases/conversations/remove-inbound-number.ts';
import { GetConversationInput, type GetConversation } from '../../../core/use-cases/conversations/get-conversation.ts';
import { ListConversationsInput, type ListConversations } from '../../../core/use-cases/conversations/list-conversations.ts';
import type { MarkConversationRead } from '../../../core/use-cases/conversations/mark-conversation-read.ts';
import { ReplyInput, type ReplyToConversation } from '../../../core/use-cases/conversations/reply-to-conversation.ts';
import { ok, requireTenant, requireUser, type RouteDefinition } from '../route.ts';
import { sendContext } from './message-routes.ts';

export interface ConversationRouteDeps {
  listConversations: ListConversations;
  getConversation: GetConversation;
  reply: ReplyToConversation;
  markRead: MarkConversationRead;
  listKeywords: ListKeywords;
  createKeyword: CreateKeyword;
  deleteKeyword: DeleteKeyword;
  listInboundNumbers: ListInboundNumbers;
  assignInboundNumber: AssignInboundNumber;
  removeInboundNumber: RemoveInboundNumber;
}

const DENIED = { 400: 'ORGANIZATION_REQUIRED', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN (the role lacks the permission)' };

/** Conversations (docs/conversations.md): inbound messages by contact and channel, replies, keywords; receiving numbers for administrators. */
export function conversationRoutes(deps: ConversationRouteDeps): RouteDefinition[] {
  return [
    {
      method: 'GET', path: '/conversations', tag: 'Conversations', summary: 'Conversations, most recent message first (cursor paged, at most 100)',
      auth: 'tenant', permission: 'conversations:read', query: ListConversationsInput,
      responses: { 200: '{ items, limit, nextCursor }', ...DENIED, 400: 'VALIDATION_ERROR' },
      handler: async (input) => ok(await deps.listConversations.execute(requireTenant(input), input.query)),
    },
    {
      method: 'GET', path: '/conversations/keywords', tag: 'Conversations', summary: 'Built-in and the organization\'s keywords (opt-out, opt-in, auto-reply)',
      auth: 'tenant', permission: 'conversations:read',
      responses: { 200: '{ builtIn { OPT_OUT, OPT_IN }, items, limit }', ...DENIED },
      handler: async (input) => ok(await deps.listKeywords.execute(requireTenant(input))),
    },
    {
      method: 'POST', path: '/conversations/keywords', tag: 'Conversations', summary: 'Add a keyword: OPT_OUT, OPT_IN or AUTO_REPLY with a replyText',
      auth: 'tenant', permission: 'compliance:write', body: CreateKeywordInput,
      responses: { 201: 'The keyword', ...DENIED, 400: 'VALIDATION_ERROR', 409: 'CONFLICT (exists already)', 422: 'LIMIT_REACHED (50)' },
      handler: async (input) => ok(await deps.createKeyword.execute(requireTenant(input), input.body), 201),
    },
    {
      method: 'DELETE', path: '/conversations/keywords/:id', tag: 'Conversations', summary: 'Remove a keyword of the organization',
      auth: 'tenant', permission: 'compliance:write',
      responses: { 200: '{ id, deleted }', ...DENIED, 404: 'NOT_FOUND' },
      handler: async (input) => ok(await deps.deleteKeyword.execute(requireTenant(input), input.params['id'] ?? '')),
    },
    {
      method: 'GET', path: '/conversations/:id', tag: 'Conversations', summary: 'A conversation with its contact and thread (inbound and outbound, newest first, at most 100)',
      auth: 'tenant', permission: 'conversations:read', query: GetConversationInput,
      responses: { 200: 'The conversation, contact, messages, nextBefore', ...DENIED, 400: 'VALIDATION_ERROR', 404: 'NOT_FOUND' },
      handler: async (input) => ok(await deps.getConversation.execute(requireTenant(input), input.params['id'] ?? '', input.query)),
    },
    {
      method: 'POST', path: '/conversations/:id/reply', tag: 'Conversations', summary: 'Reply on the channel the contact used (charged; WhatsApp 24-hour window applies)',
      auth: 'tenant', permission: 'conversations:write', body: ReplyInput,
      responses: {
        202: 'Queued: the delivery log', ...DENIED, 400: 'VALIDATION_ERROR', 402: 'INSUFFICIENT_BALANCE', 404: 'NOT_FOUND',
        422: 'WHATSAPP_WINDOW_CLOSED, TEMPLATE_NOT_APPROVED or IDEMPOTENCY_KEY_REUSED',
      },
      handler: async (input) => {
        const result = await deps.reply.execute(sendContext(input), input.params['id'] ?? '', input.body);
        if (result.replayed) input.koa.set('Idempotent-Replayed', 'true');
        return ok(result.log, 202);
      },
    },
    {
      method: 'POST', path: '/conversations/:id/read', tag: 'Conversations', summary: 'Mark a conversation read (unread count 0)',
      auth: 'tenant', permission: 'conversations:write',
      responses: { 200: 'The conversation', ...DENIED, 404: 'NOT_FOUND' },
      handler: async (input) => ok(await deps.markRead.execute(requireTenant(input), input.params['id'] ?? '')),
    },
    {
      method: 'GET', path: '/admin/inbound-numbers', tag: 'Admin', summary: 'Receiving numbers of platform vendor accounts assigned to organizations',
      auth: 'platform-admin', responses: { 200: '{ items }', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN' },
      handler: async () => ok(await deps.listInboundNumbers.execute()),
    },
    {
      method: 'POST', path: '/admin/inbound-numbers', tag: 'Admin', summary: 'Assign a receiving number / short code / WhatsApp phone-number id to an organization (audited)',
      auth: 'platform-admin', body: AssignInboundNumberInput,
      responses: { 201: 'The assignment', 400: 'VALIDATION_ERROR', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN', 404: 'NOT_FOUND (organization)', 409: 'CONFLICT (assigned already)' },
      handler: async (input) => ok(await deps.assignInboundNumber.execute({ userId: requireUser(input).userId }, input.body), 201),
    },
    {
      method: 'DELETE', path: '/admin/inbound-numbers/:id', tag: 'Admin', summary: 'Remove an assignment (audited)',
      auth: 'platform-admin', responses: { 200: '{ id, deleted }', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN', 404: 'NOT_FOUND' },
      handler: async (input) => ok(await deps.removeInboundNumber.execute({ userId: requireUser(input).userId }, input.params['id'] ?? '')),
    },
  ];
}
