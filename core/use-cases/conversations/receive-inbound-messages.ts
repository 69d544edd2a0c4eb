import type { Contact } from '../../domain/contact.ts';
import { normalizeInboundAddress, preview, type Conversation, type InboundMessage } from '../../domain/conversation.ts';
import { normalizePhone } from '../../domain/phone.ts';
import { decideKeyword } from '../../domain/inbound-keywords.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Repositories, Storage } from '../../ports/storage.ts';
import type { InboundReport } from '../../ports/vendor-adapter.ts';
import type { WebhookSubscriptions } from '../../ports/webhook-subscriptions.ts';
import { waitKeys } from '../../domain/workflow.ts';
import { publishOutboundEvent } from '../webhooks/publish-outbound-event.ts';
import { wakeWaitingRuns } from '../workflows/wake-waiting-runs.ts';
import { applyInboundKeyword, type KeywordOutcome } from './apply-inbound-keyword.ts';

export interface ReceiveInboundDeps {
  storage: Storage;
  clock: Clock;
  ids: IdGenerator;
  /** When given, `message.received` is published only for organizations with subscribers. */
  webhooks?: WebhookSubscriptions;
}

/** Which vendor account verified the callback: its owner organization (a tenant's own account) or null (the platform's). */
export interface InboundSource { vendor: string; provider: string; organizationId: string | null }

export interface ReceivedInbound { message: InboundMessage; conversation: Conversation; keyword: KeywordOutcome | null }

export interface ReceiveInboundResult {
  stored: ReceivedInbound[];
  /** Retries of messages stored before (same vendor message id): nothing written, no webhook. */
  duplicates: number;
  /** Messages to a receiving address no organization holds: acknowledged, stored nowhere. */
  unrouted: Array<{ channel: string; to: string }>;
  /** Messages whose sender is not a readable phone number. */
  invalid: number;
}

/**
 * Stores the messages of a verified inbound callback (docs/conversations.md). Each goes to the
 * organization owning the vendor account that verified it, else to the one its receiving address is
 * assigned to (inbound numbers); unknown -> unrouted. Per message, in one transaction: the contact
 * (created when unknown), the conversation (created when new), the message (once per vendor message id),
 * the keyword step, the `message.received` event, and the wake-up of workflow runs waiting for a reply
 * from this phone (docs/workflows.md, `wait` for `reply`).
 */
export class ReceiveInboundMessages {
  readonly #deps: ReceiveInboundDeps;
  constructor(deps: ReceiveInboundDeps) { this.#deps = deps; }

  async execute(source: InboundSource, reports: readonly InboundReport[]): Promise<ReceiveInboundResult> {
    const result: ReceiveInboundResult = { stored: [], duplicates: 0, unrouted: [], invalid: 0 };
    for (const report of reports.slice(0, 100)) {
      const to = normalizeInboundAddress(report.to);
      const organizationId = source.organizationId ?? (await this.#deps.storage.inboundNumbers.findByAddress(report.channel, to))?.organizationId ?? null;
      if (!organizationId) { result.unrouted.push({ channel: report.channel, to }); continue; }
      const phone = normalizePhone(report.from.replace(/^whatsapp:/i, ''), 'GH');
      if (!phone.ok || report.providerMessageId.trim() === '') { result.invalid += 1; continue; }
      const publish = this.#deps.webhooks ? await this.#deps.webhooks.hasSubscribers(organizationId, 'message.received') : true;
      const stored = await this.#deps.storage.transaction((tx) => this.#store(tx, source, organizationId, phone.phone.e164, to, report, publish));
      if (stored) result.stored.push(stored); else result.duplicates += 1;
    }
    return result;
  }

  async #store(tx: Repositories, source: InboundSource, organizationId: string, phone: string, to: string, report: InboundReport, publish: boolean): Promise<ReceivedInbound | null> {
    const { ids, clock } = this.#deps;
    const now = clock.now();
    const receivedAt = report.receivedAt && report.receivedAt.getTime() <= now.getTime() ? report.receivedAt : now;
    const contact = (await tx.contacts.findByAddresses(organizationId, [phone], []))[0] ?? await newContact(tx, ids.next(), organizationId, phone, report.profileName, now);
    let conversation = await tx.conversations.findByAddress(organizationId, report.channel, phone);
    if (!conversation) {
      conversation = { id: ids.next(), organizationId, contactId: contact.id, channel: report.channel, address: phone, lastInboundTo: to, lastInboundAt: receivedAt,
        lastMessageAt: receivedAt, lastMessagePreview: '', unreadCount: 0, createdAt: now, updatedAt: now };
      await tx.conversations.insert(conversation);
    }
    const message: InboundMessage = {
      id: ids.next(), organizationId, conversationId: conversation.id, contactId: contact.id, channel: report.channel, vendor: source.vendor, provider: source.provider,
      providerMessageId: report.providerMessageId, from: phone, to, body: report.body.slice(0, 4_096), receivedAt, createdAt: now,
      keyword: decideKeyword(report.body, await tx.conversations.listKeywords(organizationId))?.action ?? null,
    };
    if (!(await tx.conversations.insertInbound(message))) return null;
    await tx.conversations.touchInbound(organizationId, conversation.id, { receivedAt, to, preview: preview(message.body), now });
    await wakeWaitingRuns(tx, organizationId, [waitKeys.reply(phone)]);
    const keyword = await applyInboundKeyword(tx, ids, { organizationId, contact, channel: report.channel, phone, body: message.body, inboundMessageId: message.id, now });
    if (publish) {
      await publishOutboundEvent(tx, { id: ids.next(), organizationId, kind: 'message.received', occurredAt: now, data: {
        id: message.id, conversationId: conversation.id, contactId: contact.id, channel: message.channel, from: phone, to, body: message.body,
        receivedAt: receivedAt.toISOString(), keyword: keyword ? { action: keyword.action, keyword: keyword.keyword } : null,
      } });
    }
    const current = (await tx.conversations.findById(organizationId, conversation.id)) ?? conversation;
    return { message, conversation: current, keyword };
  }
}

async function newContact(tx: Repositories, id: string, organizationId: string, phone: string, profileName: string | null, now: Date): Promise<Contact> {
  const name = profileName?.trim().slice(0, 100) || null;
  const contact: Contact = {
    id, organizationId, firstName: name, lastName: null, phone, email: null, countryCode: 'GH', tags: ['inbound'], fcmToken: null, attributes: {},
    optedOutAt: null, createdAt: now, updatedAt: now,
  };
  await tx.contacts.insert(contact);
  return contact;
}
