import * as v from 'valibot';
import { AppError } from '../../../core/errors.ts';
import { INBOX_MARKS, isSubscriberId } from '../../../core/domain/inbox.ts';
import type { AuthenticateSubscriber, SubscriberCredentials } from '../../../core/use-cases/inbox/authenticate-subscriber.ts';
import { InboxFeedQuery, type GetInboxFeed } from '../../../core/use-cases/inbox/get-inbox-feed.ts';
import type { ManageInboxSettings } from '../../../core/use-cases/inbox/manage-inbox-settings.ts';
import { MarkAllInboxItemsInput, MarkInboxItemsInput, type MarkInboxItems } from '../../../core/use-cases/inbox/mark-inbox-items.ts';
import type { InboxStreams } from '../inbox/inbox-streams.ts';
import { INBOX_COMPONENT_JS, inboxExamplePage } from '../inbox/inbox-component.ts';
import { ok, requireTenant, type RequestInput, type RouteDefinition } from '../route.ts';

export interface InboxRouteDeps {
  authenticate: AuthenticateSubscriber;
  feed: GetInboxFeed;
  mark: MarkInboxItems;
  settings: ManageInboxSettings;
  streams: InboxStreams;
  /** Computes a subscriber hash for the organization (dashboard "open the example as ..."). */
  subscriberHash: (organizationId: string, subscriberId: string) => Promise<string | null>;
}

const SUBSCRIBER_DENIED = { 401: 'UNAUTHORIZED (missing or wrong appId, subscriberId or subscriberHash)' };
const MarkOneInput = v.object({ mark: v.picklist(INBOX_MARKS, `must be one of ${INBOX_MARKS.join(', ')}`) });
const SubscriberHashInput = v.object({ subscriberId: v.pipe(v.string('must be a string'), v.trim(), v.check(isSubscriberId, 'must be 1-128 letters, digits and . _ : @ + -')) });

/** Browser credentials: X-Inbox-* headers, or (for EventSource, which cannot set headers) the query string of the stream. */
function credentials(input: RequestInput, allowQuery = false): SubscriberCredentials {
  const header = (name: string) => { const value = input.headers[name]; return typeof value === 'string' ? value : undefined; };
  return {
    appId: header('x-inbox-app-id') ?? (allowQuery ? input.query['appId'] : undefined),
    subscriberId: header('x-inbox-subscriber-id') ?? (allowQuery ? input.query['subscriberId'] : undefined),
    subscriberHash: header('x-inbox-subscriber-hash') ?? (allowQuery ? input.query['subscriberHash'] : undefined),
  };
}

/** The in-app inbox (docs/inbox.md): the subscriber feed API and stream for browsers, the component, and the tenant's settings. */
export function inboxRoutes(deps: InboxRouteDeps): RouteDefinition[] {
  const subscriber = (input: RequestInput, allowQuery = false) => deps.authenticate.execute(credentials(input, allowQuery));
  return [
    {
      method: 'GET', path: '/inbox/v1/feed', tag: 'Inbox', summary: 'The subscriber\'s feed, newest first (cursor pagination), with unread and unseen counts',
      auth: 'none', query: InboxFeedQuery, responses: { 200: '{ items, nextCursor, counts }', 400: 'VALIDATION_ERROR', ...SUBSCRIBER_DENIED },
      handler: async (input) => ok(await deps.feed.execute(await subscriber(input), input.query)),
    },
    {
      method: 'GET', path: '/inbox/v1/counts', tag: 'Inbox', summary: 'Unread, unseen and total counts of the subscriber\'s feed (archived items excluded)',
      auth: 'none', responses: { 200: '{ unread, unseen, total }', ...SUBSCRIBER_DENIED },
      handler: async (input) => ok(await deps.feed.counts(await subscriber(input))),
    },
    {
      method: 'POST', path: '/inbox/v1/items/mark', tag: 'Inbox', summary: 'Mark items seen, read, unread, archived or unarchived (other subscribers\' ids are ignored)',
      auth: 'none', body: MarkInboxItemsInput, responses: { 200: '{ changed, counts }', 400: 'VALIDATION_ERROR', ...SUBSCRIBER_DENIED },
      handler: async (input) => ok(await deps.mark.execute(await subscriber(input), input.body)),
    },
    {
      method: 'POST', path: '/inbox/v1/items/:id/mark', tag: 'Inbox', summary: 'Mark one item',
      auth: 'none', body: MarkOneInput, responses: { 200: '{ item, counts }', 400: 'VALIDATION_ERROR', ...SUBSCRIBER_DENIED, 404: 'NOT_FOUND (not an item of this subscriber)' },
      handler: async (input) => {
        const who = await subscriber(input);
        const parsed = v.safeParse(MarkOneInput, input.body ?? {});
        if (!parsed.success) throw new AppError('VALIDATION_ERROR', `mark: must be one of ${INBOX_MARKS.join(', ')}`, { fieldErrors: { mark: [`must be one of ${INBOX_MARKS.join(', ')}`] }, formErrors: [] });
        return ok(await deps.mark.one(who, input.params['id']!, parsed.output.mark));
      },
    },
    {
      method: 'POST', path: '/inbox/v1/mark-all', tag: 'Inbox', summary: 'Mark every item of the subscriber seen, read or archived',
      auth: 'none', body: MarkAllInboxItemsInput, responses: { 200: '{ changed, counts }', 400: 'VALIDATION_ERROR', ...SUBSCRIBER_DENIED },
      handler: async (input) => ok(await deps.mark.all(await subscriber(input), input.body)),
    },
    {
      method: 'GET', path: '/inbox/v1/stream', tag: 'Inbox',
      summary: 'Server-Sent Events: `counts` at once, then `item` (id = item id; Last-Event-ID resumes), `marked` and `counts` as the feed changes; credentials in headers or the query (appId, subscriberId, subscriberHash)',
      auth: 'none', custom: true,
      responses: { 200: 'text/event-stream', ...SUBSCRIBER_DENIED, 429: 'RATE_LIMITED (too many streams for this subscriber)', 503: 'SERVICE_UNAVAILABLE (this server holds its maximum of streams)' },
      handler: async (input) => {
        const who = await subscriber(input, true);
        const lastEventId = input.headers['last-event-id'] ?? input.query['lastEventId'];
        input.koa.status = 200; // for the request log and metrics (Koa's default is 404 until a body is set); a refusal below overrides it
        await deps.streams.open(who, input.koa.res, typeof lastEventId === 'string' && lastEventId.length <= 64 ? lastEventId : undefined);
        input.koa.respond = false;
      },
    },
    {
      method: 'GET', path: '/inbox/v1/inbox.js', tag: 'Inbox', summary: 'The embeddable <nkra-inbox> web component (dependency-free JavaScript)',
      auth: 'none', custom: true, responses: { 200: 'application/javascript' },
      handler: async (input) => {
        input.koa.type = 'application/javascript; charset=utf-8';
        input.koa.set('Cache-Control', 'public, max-age=300');
        input.koa.body = INBOX_COMPONENT_JS;
      },
    },
    {
      method: 'GET', path: '/inbox/example', tag: 'Inbox', summary: 'An example page embedding the bell (query appId, subscriberId, subscriberHash)',
      auth: 'none', custom: true, responses: { 200: 'text/html' },
      handler: async (input) => {
        input.koa.type = 'text/html; charset=utf-8';
        input.koa.set('Content-Security-Policy', "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'");
        input.koa.body = inboxExamplePage(input.query);
      },
    },
    {
      method: 'GET', path: '/inbox/settings', tag: 'Inbox', summary: 'The organization\'s inbox application id (public) and secret hint (never the secret)',
      auth: 'tenant', permission: 'api-keys:read', responses: { 200: '{ configured, appId, secretHint, createdAt, rotatedAt }', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN' },
      handler: async (input) => ok(await deps.settings.get(requireTenant(input).organizationId)),
    },
    {
      method: 'POST', path: '/inbox/settings/secret', tag: 'Inbox', summary: 'Create or rotate the inbox secret: answered once; hashes made with the old secret stop working at once',
      auth: 'tenant', permission: 'api-keys:write', responses: { 201: '{ appId, secret, secretHint, ... }', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN' },
      handler: async (input) => {
        const result = await deps.settings.rotate(requireTenant(input).organizationId);
        if (result.appId) deps.authenticate.forget(result.appId);
        return ok(result, 201);
      },
    },
    {
      method: 'POST', path: '/inbox/settings/subscriber-hash', tag: 'Inbox', summary: 'The subscriberHash of one subscriber id (what the tenant\'s backend computes; for trying the bell)',
      auth: 'tenant', permission: 'api-keys:write', body: SubscriberHashInput,
      responses: { 200: '{ appId, subscriberId, subscriberHash }', 400: 'VALIDATION_ERROR', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN', 404: 'NOT_FOUND (no inbox secret yet)' },
      handler: async (input) => {
        const { organizationId } = requireTenant(input);
        const parsed = v.safeParse(SubscriberHashInput, input.body ?? {});
        if (!parsed.success) throw new AppError('VALIDATION_ERROR', 'subscriberId: must be 1-128 letters, digits and . _ : @ + -', { fieldErrors: { subscriberId: ['must be 1-128 letters, digits and . _ : @ + -'] }, formErrors: [] });
        const settings = await deps.settings.get(organizationId);
        const hash = await deps.subscriberHash(organizationId, parsed.output.subscriberId);
        if (!settings.appId || !hash) throw new AppError('NOT_FOUND', 'No inbox secret yet: create one with POST /inbox/settings/secret');
        return ok({ appId: settings.appId, subscriberId: parsed.output.subscriberId, subscriberHash: hash });
      },
    },
  ];
}
