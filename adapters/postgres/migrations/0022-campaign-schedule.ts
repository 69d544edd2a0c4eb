import type { Migration } from './migration.ts';

/**
 * The worker's release task (core/use-cases/messaging/release-scheduled-messages.ts) starts due
 * SCHEDULED campaigns every second: it reads them by time through this partial index.
 */
export const campaignSchedule: Migration = {
  id: '0022-campaign-schedule',
  statements: [`create index campaigns_scheduled_due on campaigns (scheduled_at, id) where status = 'SCHEDULED'`],
};
