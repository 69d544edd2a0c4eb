import type { Channel } from '../../core/domain/channel.ts';
import type { ChannelProvider, OutboundMessage, ProviderResult } from '../../core/ports/channel-provider.ts';

export type SandboxOutcome = 'delivered' | 'sent' | 'fail' | 'transient' | 'slow';

/**
 * Magic recipients of the sandbox (documented in docs/sandbox.md):
 * phones +233209990001 fail, ...02 transient, ...03 slow, ...04 sent; emails fail@, transient@, slow@,
 * sent@ any domain; push tokens starting with fail:, transient:, slow:, sent:. Anything else is
 * delivered at once.
 */
export function sandboxOutcome(to: string): SandboxOutcome {
  const phone: Record<string, SandboxOutcome> = { '+233209990001': 'fail', '+233209990002': 'transient', '+233209990003': 'slow', '+233209990004': 'sent' };
  if (phone[to]) return phone[to];
  const word = to.includes('@') ? to.split('@')[0]! : to.split(':')[0]!;
  return (['fail', 'transient', 'slow', 'sent'] as const).find((w) => w === word.toLowerCase()) ?? 'delivered';
}

/** The provider sandbox API keys reach: never leaves the process, never charges. */
export class SandboxProvider implements ChannelProvider {
  readonly name = 'sandbox';
  readonly channel: Channel;
  readonly #slowMs: number;
  constructor(channel: Channel, slowMs = 2_000) { this.channel = channel; this.#slowMs = slowMs; }

  async send(message: OutboundMessage): Promise<ProviderResult> {
    const outcome = sandboxOutcome(message.to);
    if (outcome === 'slow') await new Promise((resolve) => setTimeout(resolve, this.#slowMs));
    if (outcome === 'fail') return { accepted: false, retryable: false, errorCode: 'SANDBOX_REJECTED', errorMessage: 'Sandbox: recipient rejected (magic recipient)' };
    if (outcome === 'transient') return { accepted: false, retryable: true, errorCode: 'SANDBOX_UNAVAILABLE', errorMessage: 'Sandbox: provider temporarily unavailable (magic recipient)' };
    return { accepted: true, providerMessageId: `sbx_${message.internalMessageId}`, delivered: outcome !== 'sent' };
  }
}
