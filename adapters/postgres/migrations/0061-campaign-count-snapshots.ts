import type { Migration } from './migration.ts';

/**
 * The latest delivery counts of each campaign (docs/campaigns.md, "Progress and ETA"): counting a
 * 1,000,000-recipient campaign joins its recipients with their messages (seconds), so the views (GET
 * /campaigns/{id}, the list, the dashboard's progress polls) read counts at most a few seconds old from
 * here, and one reader at a time recounts (SqlCampaignRepository.recentCounts). A table of its own, so
 * writing a snapshot never waits on the campaign row a fan-out batch holds.
 */
export const campaignCountSnapshots: Migration = {
  id: '0061-campaign-count-snapshots',
  statements: [
    `create table campaign_count_snapshots (
      campaign_id text primary key references campaigns (id) on delete cascade,
      organization_id text not null,
      counts jsonb not null,
      counted_at timestamptz not null
    )`,
  ],
};
