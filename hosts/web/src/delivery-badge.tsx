import type { ReactNode } from 'react';
import { Badge, str } from './ui.tsx';

/**
 * A delivery log's status. A message the local outbox took (`localOnly`, `deliveredVia: "OUTBOX"`) is
 * never shown as a green SENT/DELIVERED: it gets an amber "outbox" badge saying it did not leave this
 * machine (issue 29, docs/providers.md "The outbox").
 */
export function DeliveryBadge({ log }: { log: Record<string, unknown> }): ReactNode {
  if (log['localOnly'] === true || log['deliveredVia'] === 'OUTBOX') {
    return (
      <span data-testid="outbox-badge" className="badge badge-outbox" title="Written to the local outbox (DATA_DIR/outbox) on this machine; it was not delivered to anyone">
        {str(log['status'])} · outbox, not delivered
      </span>
    );
  }
  return <Badge value={log['status']} />;
}
