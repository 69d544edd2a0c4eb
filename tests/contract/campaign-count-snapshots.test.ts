import { expect } from 'chai';
import { MikroOrmStorage } from '../../adapters/postgres/mikro-orm-storage.ts';
import { UuidV7IdGenerator } from '../../adapters/security/uuid-v7-id-generator.ts';
import { NO_PROGRESS } from '../../core/domain/campaign-progress.ts';
import type { Campaign } from '../../core/domain/campaign.ts';
import { sharedInfrastructure } from '../support/shared-infrastructure.ts';
import { availableDatabaseKinds } from '../support/test-database.ts';
import { seedOrganization, uniqueId } from './contract-fixtures.ts';

/**
 * SqlCampaignRepository.recentCounts (migration 0061, docs/campaigns.md "Progress and ETA"): a large
 * campaign's views answer a snapshot at most `maxAgeSeconds` old, and one reader recounts at a time.
 * PostgreSQL only: the memory adapter always counts now (the contract suite checks both agree), and PGlite's
 * one connection cannot show two readers at once.
 */
for (const kind of (await availableDatabaseKinds()).filter((k) => k === 'postgres')) {
  describe(`Campaign count snapshots: ${kind} (SqlCampaignRepository)`, function () {
    this.timeout(60_000);

    it('answers a large campaign\'s views from a recent count, recounts when it is older, and lets one reader count at a time', async () => {
      const infra = await sharedInfrastructure(kind);
      const storage = new MikroOrmStorage(infra.database, new UuidV7IdGenerator(), infra.boss);
      const org = (await seedOrganization(storage)).id;
      const now = new Date();
      const campaign: Campaign = {
        id: uniqueId('camp'), organizationId: org, name: 'Big', channel: 'SMS', templateId: null, segmentId: null, scheduledAt: null, status: 'SENDING',
        approvalRequestId: null, riskScore: 10, cursor: null, fanOutDone: false, progress: NO_PROGRESS, failureReason: null, createdByUserId: null,
        createdAt: now, updatedAt: now, startedAt: now, completedAt: null, cancelledAt: null,
      };
      await storage.campaigns.insert(campaign);
      const em = infra.database.em();
      const addSkipped = (from: number, to: number) => em.execute(`insert into campaign_recipients (campaign_id, contact_id, message_id, skip_reason)
        select ?, 'contact-' || n, null, 'no phone' from generate_series(?::int, ?::int) n`, [campaign.id, from, to]);
      await addSkipped(1, 20_000);

      expect((await storage.campaigns.recentCounts(org, campaign.id, 5)).skipped).to.equal(20_000); // no snapshot yet: counted now
      await addSkipped(20_001, 20_010);
      expect((await storage.campaigns.recentCounts(org, campaign.id, 5)).skipped).to.equal(20_000); // the snapshot, under 5 s old
      expect((await storage.campaigns.counts(org, campaign.id)).skipped).to.equal(20_010); // exact, and the new snapshot

      await addSkipped(20_011, 20_020);
      // Another reader is counting (holds the campaign's counting lock): the latest snapshot is answered, not a second count.
      await em.transactional(async (other) => {
        await other.execute(`select pg_advisory_xact_lock(hashtext('campaign-counts'), hashtext(?))`, [campaign.id]);
        expect((await storage.campaigns.recentCounts(org, campaign.id, 0)).skipped).to.equal(20_010);
      });
      expect((await storage.campaigns.recentCounts(org, campaign.id, 0)).skipped).to.equal(20_020);
      expect((await storage.campaigns.recentCounts((await seedOrganization(storage)).id, campaign.id, 5)).skipped).to.equal(0);
    });
  });
}
