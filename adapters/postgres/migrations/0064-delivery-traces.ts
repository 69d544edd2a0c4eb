import type { Migration } from './migration.ts';

/**
 * `delivery_traces` (docs/adr/0042-tracing.md): with tracing on, the trace context of each accepted vendor
 * call, by the provider name and the vendor's message id a delivery report names, so the report continues
 * the message's trace in whichever process receives it. Written and read only when tracing is on; rows
 * older than 7 days are pruned by the store (SqlDeliveryTraceStore).
 */
export const deliveryTraces: Migration = {
  id: '0064-delivery-traces',
  statements: [
    `create table delivery_traces (
      provider text not null,
      provider_message_id text not null,
      traceparent text not null,
      tracestate text,
      created_at timestamptz not null default now(),
      primary key (provider, provider_message_id)
    )`,
    'create index delivery_traces_created_at on delivery_traces (created_at)',
  ],
};
