import type { Migration } from './migration.ts';

/**
 * Campaign progress and ETA (docs/campaigns.md, "Progress and ETA"): the audience size counted when the
 * fan-out starts, the contacts handed over so far, and the recent fan-out and delivery rates with the
 * sample they were measured from. Written by the fan-out's own batch transactions, so they move with
 * the cursor (a rolled-back batch rolls its progress back too). The PAUSED status needs no change: the
 * status column is plain text.
 */
export const campaignProgress: Migration = {
  id: '0054-campaign-progress',
  statements: [
    `alter table campaigns
      add column audience_total integer null,
      add column processed integer not null default 0,
      add column fan_out_rate double precision null,
      add column delivery_rate double precision null,
      add column sampled_at timestamptz null,
      add column sampled_settled integer null`,
  ],
};
