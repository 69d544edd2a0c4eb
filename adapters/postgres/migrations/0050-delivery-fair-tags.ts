import type { Migration } from './migration.ts';

/**
 * Fair queueing between tenants (docs/adr/0036-delivery-lanes-and-fair-queueing.md): per lane, the last
 * start tag given to each organization's delivery jobs (`last_count`: how many the last enqueue took), so
 * the next job of a tenant with a backlog queues behind that backlog while a fresh tenant's starts at the
 * lane's clock. Not tenant data anyone reads: a lost or stale row only shifts one tenant's place in line.
 */
export const deliveryFairTags: Migration = {
  id: '0050-delivery-fair-tags',
  statements: [
    `create table delivery_fair_tags (
      lane text not null,
      organization_id text not null,
      last_tag bigint not null,
      last_count integer not null,
      primary key (lane, organization_id)
    )`,
    'create index delivery_fair_tags_clock on delivery_fair_tags (lane, last_tag desc)',
  ],
};
