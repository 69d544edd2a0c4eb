import type { ReactNode } from 'react';
import { api, asList } from './api.ts';
import { outboxFallbackChannels, outboxOnlyChannels, type ProviderRow } from './format.ts';
import { Notice, useAsync } from './ui.tsx';


/**
 * A warning while any channel routes only to the outbox (the default before a vendor is configured):
 * such messages are reported SENT but are written to DATA_DIR/outbox instead of reaching anyone; and
 * whenever a channel with a vendor can still fall back to the outbox (issue 29: a degraded vendor then
 * sends messages to a file, not to people).
 */
export function OutboxBanner(): ReactNode {
  const providers = useAsync(async () => asList<ProviderRow>(await api.get('/providers')), []);
  const channels = outboxOnlyChannels(providers.data ?? []);
  const fallback = outboxFallbackChannels(providers.data ?? []);
  if (channels.length === 0 && fallback.length === 0) return null;
  return (
    <div data-testid="outbox-banner">
      {fallback.length > 0 && (
        <div data-testid="outbox-fallback-banner">
          <Notice kind="warning">
            <strong>{fallback.join(', ')} can fall back to the local outbox:</strong> when {fallback.length > 1 ? 'their' : 'its'} providers
            fail, live messages are written to <code>DATA_DIR/outbox</code> on this machine instead of being delivered. Such messages are
            marked <em>outbox, not delivered</em> in the delivery logs (<code>deliveredVia: "OUTBOX"</code> in the API). A platform
            administrator can deactivate the outbox provider of {fallback.length > 1 ? 'these channels' : 'this channel'} so failures show as failures.
          </Notice>
        </div>
      )}
      {channels.length > 0 && <Notice kind="warning">
        <strong>Nothing leaves this machine on {channels.join(', ')}:</strong> no messaging provider is configured for
        {channels.length > 1 ? ' these channels' : ' this channel'}, so live messages are written to the local outbox
        (<code>DATA_DIR/outbox</code>) and marked <em>outbox, not delivered</em> (never a plain SENT). They are not counted in the delivery
        rate. A platform administrator adds a vendor (see docs/providers.md).
      </Notice>}
    </div>
  );
}
