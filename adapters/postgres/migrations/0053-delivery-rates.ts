import type { Migration } from './migration.ts';

/**
 * Rate shaping and weighted fair shares (docs/adr/0036-delivery-lanes-and-fair-queueing.md):
 * - `rate_buckets`: per pacing key (a provider, a tenant's ceiling) the epoch millisecond its next slot
 *   starts (`next_at`) and where the line of refused takers ends (`line_at`), on the database's clock,
 *   moved by one upsert under the row lock (SqlRateBuckets).
 * - `delivery_tenant_limits`: an organization's fair-share weight and delivery ceiling (messages/s), set by
 *   platform administrators; the queue's tag statement reads the weight. No foreign key: a row of a deleted
 *   organization only weighs jobs that no longer come.
 * - Fair tags become fractional: a tenant of weight w advances its tag by 1/w per job.
 */
export const deliveryRates: Migration = {
  id: '0053-delivery-rates',
  statements: [
    'create table rate_buckets (key text primary key, next_at double precision not null, line_at double precision not null default 0)',
    `create table delivery_tenant_limits (
      organization_id text primary key,
      weight numeric not null default 1 check (weight > 0),
      max_per_second numeric check (max_per_second > 0),
      updated_at timestamptz not null default now()
    )`,
    'alter table delivery_fair_tags alter column last_tag type numeric, alter column last_count type numeric',
  ],
};
