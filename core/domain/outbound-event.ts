/** Kinds of outbound webhook events (spec section 6). */
export const OUTBOUND_EVENT_KINDS = ['message.status.updated', 'contact.opted_out', 'campaign.completed', 'verification.approved', 'verification.failed', 'message.received',
  'verification.budget_exceeded', 'contact.push_token_removed', 'workflow.run_failed', 'message.clicked', 'message.opened', 'routing.route_shifted'] as const;
export type OutboundEventKind = (typeof OUTBOUND_EVENT_KINDS)[number];

/**
 * Something that happened to a tenant's data that webhook endpoints may subscribe to. Recorded in the
 * same transaction as the change it describes (an outbox), then fanned out to endpoints by the worker.
 */
export interface OutboundEvent {
  id: string;
  organizationId: string;
  kind: OutboundEventKind;
  /** The event's payload `data`: plain JSON. */
  data: Record<string, unknown>;
  occurredAt: Date;
}
