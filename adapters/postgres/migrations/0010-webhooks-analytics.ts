import type { Migration } from './migration.ts';

/** Webhook endpoints and their deliveries (docs/webhooks.md). */
export const webhooksAnalytics: Migration = {
  id: '0010-webhooks-analytics',
  statements: [
    `create table webhook_endpoints (
      id text primary key,
      organization_id text not null references organizations (id) on delete cascade,
      url text not null,
      events jsonb not null default '[]',
      is_active boolean not null,
      secret_ciphertext text not null,
      previous_secret_ciphertext text null,
      previous_secret_expires_at timestamptz null,
      disabled_reason text null,
      failing_since timestamptz null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`,
    `create index webhook_endpoints_org_created on webhook_endpoints (organization_id, created_at desc, id desc)`,
    `create index webhook_endpoints_org_active on webhook_endpoints (organization_id) where is_active`,
    `create table webhook_deliveries (
      id text primary key,
      organization_id text not null references organizations (id) on delete cascade,
      endpoint_id text not null references webhook_endpoints (id) on delete cascade,
      event_id text not null,
      kind text not null,
      status text not null check (status in ('PENDING','SUCCEEDED','FAILED')),
      attempts integer not null default 0,
      response_code integer null,
      last_error text null,
      next_attempt_at timestamptz null,
      last_attempt_at timestamptz null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (endpoint_id, event_id)
    )`,
    `create index webhook_deliveries_endpoint_created on webhook_deliveries (endpoint_id, created_at desc, id desc)`,
  ],
};
