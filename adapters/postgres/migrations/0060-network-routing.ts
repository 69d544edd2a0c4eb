import type { Migration } from './migration.ts';

/**
 * Network-aware routing (issue 32, docs/routing.md, docs/adr/0045-network-aware-routing.md):
 * - `messages.network`: the recipient's mobile network as priced and routed (corrected by its report).
 * - `network_routes`: per (channel, country, network) the providers in order, a price and a pin.
 * - `route_buckets`: per (provider, country, network) one-minute buckets of sends and their reports
 *   (counts, slow reports, a latency histogram), added to by upserts; pruned past the retention.
 * - `route_states` and `route_shifts`: what learning decided, and every shift it made.
 * - `number_networks`: numbers whose network a lookup or a delivery report told us (beats the prefix);
 *   lookups expire (`expires_at`), reports do not until a newer answer replaces them.
 * - `organization_routing_settings`: an organization's paid lookup mode (off, unknown, always).
 */
export const networkRouting: Migration = {
  id: '0060-network-routing',
  statements: [
    'alter table messages add column network text null',
    `create table network_routes (
      id text primary key,
      channel text not null,
      country text not null check (country ~ '^[A-Z]{2}$'),
      network text not null,
      providers jsonb not null default '[]'::jsonb check (jsonb_typeof(providers) = 'array' and jsonb_array_length(providers) <= 20),
      price_per_unit bigint null check (price_per_unit >= 0),
      pinned text null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (channel, country, network)
    )`,
    `create table route_buckets (
      provider text not null,
      country text not null,
      network text not null,
      bucket_start timestamptz not null,
      sent integer not null default 0,
      reported integer not null default 0,
      delivered integer not null default 0,
      failed integer not null default 0,
      slow integer not null default 0,
      latency integer[] not null,
      primary key (provider, country, network, bucket_start)
    )`,
    'create index route_buckets_start on route_buckets (bucket_start)',
    `create table route_states (
      provider text not null,
      country text not null,
      network text not null,
      degraded boolean not null,
      since timestamptz not null,
      reason text null,
      primary key (provider, country, network)
    )`,
    `create table route_shifts (
      id bigserial primary key,
      provider text not null,
      country text not null,
      network text not null,
      direction text not null check (direction in ('away', 'back')),
      reason text not null,
      slow_share double precision not null,
      delivery_rate double precision null,
      at timestamptz not null
    )`,
    'create index route_shifts_at on route_shifts (at desc, id desc)',
    `create table number_networks (
      e164 text primary key,
      country text not null,
      network text not null,
      source text not null check (source in ('lookup', 'report')),
      learned_at timestamptz not null,
      expires_at timestamptz null
    )`,
    'create index number_networks_learned on number_networks (learned_at)',
    `create table organization_routing_settings (
      organization_id text primary key references organizations (id) on delete cascade,
      lookup_mode text not null default 'off' check (lookup_mode in ('off', 'unknown', 'always')),
      updated_at timestamptz not null
    )`,
  ],
};
