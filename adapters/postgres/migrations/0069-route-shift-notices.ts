import type { Migration } from './migration.ts';

/**
 * Issue 32's two remaining pieces (docs/routing.md, docs/adr/0045-network-aware-routing.md):
 * - `route_shifts` becomes the outbox of the `routing.route_shifted` tenant webhook: `published_at` is set
 *   once every affected organization's event is recorded, `publishing_until` is a publisher's lease (a
 *   worker that dies mid-way leaves it to expire, and the next one resumes: event ids are derived from the
 *   shift and the organization, so nothing is published twice). Shifts stored before this migration are
 *   marked published (they are history, not news). `direction` may also be `pinned` / `unpinned` (an
 *   administrator's pin moves a network's traffic like a learned shift).
 * - `number_lookup_claims`: one paid lookup per number per TTL across every process and send path. A
 *   claim is taken before the wallet is debited and held for the TTL once the vendor answered (even "not
 *   known"), released when the vendor failed (the charge refunded).
 */
export const routeShiftNotices: Migration = {
  id: '0069-route-shift-notices',
  statements: [
    'alter table route_shifts add column published_at timestamptz null',
    'alter table route_shifts add column publishing_until timestamptz null',
    'update route_shifts set published_at = at',
    'alter table route_shifts drop constraint if exists route_shifts_direction_check',
    `alter table route_shifts add constraint route_shifts_direction_check check (direction in ('away', 'back', 'pinned', 'unpinned'))`,
    'alter table route_shifts add column channel text null',
    'create index route_shifts_unpublished on route_shifts (id) where published_at is null',
    `create table number_lookup_claims (
      e164 text primary key,
      organization_id text not null,
      claimed_until timestamptz not null
    )`,
  ],
};
