import type { Channel } from '../../core/domain/channel.ts';
import type { ChannelProvider, OutboundMessage, ProviderResult } from '../../core/ports/channel-provider.ts';

/** A provider for tests: records what it received and answers with a scripted result. */
export class RecordingProvider implements ChannelProvider {
  readonly name: string;
  readonly channel: Channel;
  readonly received: OutboundMessage[] = [];
  next: (message: OutboundMessage) => ProviderResult;
  constructor(channel: Channel, name = `recording-${channel.toLowerCase()}`) {
    this.channel = channel;
    this.name = name;
    this.next = (m) => ({ accepted: true, providerMessageId: `rec_${m.internalMessageId}`, delivered: false });
  }

  async send(message: OutboundMessage): Promise<ProviderResult> {
    this.received.push(structuredClone(message));
    return this.next(message);
  }
}
