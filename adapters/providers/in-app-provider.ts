import type { ChannelProvider, OutboundMessage, ProviderDirectory, ProviderResult } from '../../core/ports/channel-provider.ts';
import type { Channel } from '../../core/domain/channel.ts';
import type { Clock } from '../../core/ports/clock.ts';
import type { IdGenerator } from '../../core/ports/id-generator.ts';
import type { Repositories } from '../../core/ports/storage.ts';

/**
 * The IN_APP channel's one provider (docs/inbox.md): delivering is storing the item in the
 * subscriber's feed (which publishes it to open streams), so the message is DELIVERED at once.
 * Idempotent: a message delivered twice (a retried job) keeps the item stored first.
 */
export class InAppInboxProvider implements ChannelProvider {
  readonly name = 'inbox';
  readonly channel = 'IN_APP' as const;
  readonly #deps: { storage: Pick<Repositories, 'inbox'>; ids: IdGenerator; clock: Clock };
  constructor(deps: { storage: Pick<Repositories, 'inbox'>; ids: IdGenerator; clock: Clock }) { this.#deps = deps; }

  async send(message: OutboundMessage): Promise<ProviderResult> {
    try {
      const { item } = await this.#deps.storage.inbox.insert({
        id: this.#deps.ids.next(), organizationId: message.organizationId, subscriberId: message.to, messageId: message.messageId,
        subject: message.subject, body: message.body, createdAt: this.#deps.clock.now(), seenAt: null, readAt: null, archivedAt: null,
      });
      return { accepted: true, providerMessageId: item.id, delivered: true };
    } catch (error) {
      return { accepted: false, retryable: true, errorCode: 'INBOX_UNAVAILABLE', errorMessage: error instanceof Error ? error.message : 'the inbox could not store the item' };
    }
  }
}

/**
 * Adds the IN_APP channel to a directory of vendor providers: live IN_APP sends go to the inbox;
 * sandbox ones stay with the directory's sandbox provider (a sandbox send never reaches a real
 * recipient, and a subscriber's feed is one: docs/sandbox.md).
 */
export class InAppProviderDirectory implements ProviderDirectory {
  readonly #inner: ProviderDirectory;
  readonly #inbox: readonly ChannelProvider[];
  constructor(inner: ProviderDirectory, inbox: ChannelProvider) {
    this.#inner = inner;
    this.#inbox = [inbox];
  }

  ownsRoute(organizationId: string, channel: Channel, country: string | null): boolean {
    return channel !== 'IN_APP' && (this.#inner.ownsRoute?.(organizationId, channel, country) ?? false);
  }

  providersFor(channel: Channel, country: string | null, sandbox: boolean, organizationId?: string, network?: string | null): readonly ChannelProvider[] {
    if (channel === 'IN_APP' && !sandbox) return this.#inbox;
    return this.#inner.providersFor(channel, country, sandbox, organizationId, network);
  }
}
