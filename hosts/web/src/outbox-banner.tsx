import type { ReactNode } from 'react';
import { api, asList } from './api.ts';
import { outboxOnlyChannels, type ProviderRow } from './format.ts';
import { Notice, useAsync } from './ui.tsx';


/**
 * A warning while any channel routes only to the outbox (the default before a vendor is configured):
 * such messages are reported SENT but are written to DATA_DIR/outbox instead of reaching anyone.
 */
export function OutboxBanner(): ReactNode {
  const providers = useAsync(async () => asList<ProviderRow>(await api.get('/providers')), []);
  const channels = outboxOnlyChannels(providers.data ?? []);
  if (channels.length === 0) return null;
  return (
    <div data-testid="outbox-banner">
      <Notice kind="warning">
        <strong>Nothing leaves this machine on {channels.join(', ')}:</strong> no messaging provider is configured for
        {channels.length > 1 ? ' these channels' : ' this channel'}, so live messages are written to the local outbox
        (<code>DATA_DIR/outbox</code>) and shown as SENT by the provider <code>outbox</code>. They are not counted in the delivery
        rate. A platform administrator adds a vendor (see docs/providers.md).
      </Notice>
    </div>
  );
}
