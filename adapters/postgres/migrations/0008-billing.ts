import type { Migration } from './migration.ts';

/** Top-up payments (one row per reference) and monthly statements (one per organization and month). */
export const billing: Migration = {
  id: '0008-billing',
  statements: [
    `create table payments (
      reference text primary key,
      organization_id text not null references organizations (id) on delete cascade,
      amount bigint not null check (amount > 0),
      currency text not null check (currency = 'GHS'),
      method text not null,
      gateway text not null,
      status text not null check (status in ('PENDING','SUCCEEDED','FAILED','MISMATCH')),
      checkout_url text null,
      gateway_status text null,
      confirmed_amount bigint null,
      confirmed_currency text null,
      created_by_user_id text null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      credited_at timestamptz null
    )`,
    `create index payments_org_created on payments (organization_id, created_at desc, reference desc)`,
    `create table invoices (
      id text primary key,
      organization_id text not null references organizations (id) on delete cascade,
      period text not null,
      period_start timestamptz not null,
      period_end timestamptz not null,
      opening_balance bigint not null,
      top_ups bigint not null,
      debits bigint not null,
      refunds bigint not null,
      adjustments bigint not null,
      closing_balance bigint not null,
      usage jsonb not null default '[]',
      created_at timestamptz not null,
      unique (organization_id, period)
    )`,
  ],
};
