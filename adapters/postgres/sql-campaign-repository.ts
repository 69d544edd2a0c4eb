import type { EntityManager } from '@mikro-orm/sql';
import { countKeyOf, EMPTY_COUNTS, type Campaign, type CampaignCounts, type CampaignStatus } from '../../core/domain/campaign.ts';
import type { Channel } from '../../core/domain/channel.ts';
import { AppError } from '../../core/errors.ts';
import type { CampaignRecipient, CampaignRepository } from '../../core/ports/campaign-repository.ts';
import { sqlRows, toDate } from './sql-rows.ts';

interface Row {
  id: string; organization_id: string; name: string; channel: string; template_id: string | null; segment_id: string | null;
  scheduled_at: Date | string | null; status: string; approval_request_id: string | null; risk_score: number | null;
  cursor_contact_id: string | null; fan_out_done: boolean; failure_reason: string | null; created_by_user_id: string | null;
  created_at: Date | string; updated_at: Date | string; started_at: Date | string | null; completed_at: Date | string | null; cancelled_at: Date | string | null;
  audience_total: number | null; processed: number; fan_out_rate: number | null; delivery_rate: number | null; sampled_at: Date | string | null; sampled_settled: number | null;
}

function toCampaign(r: Row): Campaign {
  return {
    id: r.id, organizationId: r.organization_id, name: r.name, channel: r.channel as Channel, templateId: r.template_id, segmentId: r.segment_id,
    scheduledAt: toDate(r.scheduled_at), status: r.status as CampaignStatus, approvalRequestId: r.approval_request_id, riskScore: r.risk_score,
    cursor: r.cursor_contact_id, fanOutDone: r.fan_out_done,
    progress: { audienceTotal: r.audience_total, processed: Number(r.processed), fanOutRate: r.fan_out_rate === null ? null : Number(r.fan_out_rate),
      deliveryRate: r.delivery_rate === null ? null : Number(r.delivery_rate), sampledAt: toDate(r.sampled_at), sampledSettled: r.sampled_settled },
    failureReason: r.failure_reason, createdByUserId: r.created_by_user_id,
    createdAt: toDate(r.created_at)!, updatedAt: toDate(r.updated_at)!, startedAt: toDate(r.started_at), completedAt: toDate(r.completed_at),
    cancelledAt: toDate(r.cancelled_at),
  };
}

const FIELDS = ['name', 'channel', 'template_id', 'segment_id', 'scheduled_at', 'status', 'approval_request_id', 'risk_score', 'cursor_contact_id',
  'fan_out_done', 'failure_reason', 'created_by_user_id', 'created_at', 'updated_at', 'started_at', 'completed_at', 'cancelled_at',
  'audience_total', 'processed', 'fan_out_rate', 'delivery_rate', 'sampled_at', 'sampled_settled'] as const;

function values(c: Campaign): unknown[] {
  return [c.name, c.channel, c.templateId, c.segmentId, c.scheduledAt, c.status, c.approvalRequestId, c.riskScore, c.cursor, c.fanOutDone,
    c.failureReason, c.createdByUserId, c.createdAt, c.updatedAt, c.startedAt, c.completedAt, c.cancelledAt,
    c.progress.audienceTotal, c.progress.processed, c.progress.fanOutRate, c.progress.deliveryRate, c.progress.sampledAt, c.progress.sampledSettled];
}

/** Recipients from which counting a campaign takes long enough (~0.1 s and up) for the views to read snapshots. */
const LARGE_CAMPAIGN = 20_000;

export class SqlCampaignRepository implements CampaignRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async insert(c: Campaign): Promise<void> {
    const placeholders = FIELDS.map((_, i) => `$${i + 3}`).join(', ');
    await sqlRows(this.#em, `insert into campaigns (id, organization_id, ${FIELDS.join(', ')}) values ($1, $2, ${placeholders})`, [c.id, c.organizationId, ...values(c)]);
  }

  async findById(organizationId: string, id: string): Promise<Campaign | null> {
    const rows = await sqlRows<Row>(this.#em, 'select * from campaigns where organization_id = $1 and id = $2', [organizationId, id]);
    return rows[0] ? toCampaign(rows[0]) : null;
  }

  async lock(organizationId: string, id: string): Promise<Campaign | null> {
    const rows = await sqlRows<Row>(this.#em, 'select * from campaigns where organization_id = $1 and id = $2 for update', [organizationId, id]);
    return rows[0] ? toCampaign(rows[0]) : null;
  }

  async list(organizationId: string, limit: number): Promise<Campaign[]> {
    const rows = await sqlRows<Row>(this.#em, 'select * from campaigns where organization_id = $1 order by created_at desc, id desc limit $2', [organizationId, limit]);
    return rows.map(toCampaign);
  }

  async update(c: Campaign): Promise<boolean> {
    const sets = FIELDS.map((f, i) => `${f} = $${i + 3}`).join(', ');
    const rows = await sqlRows(this.#em, `update campaigns set ${sets} where organization_id = $1 and id = $2 returning id`, [c.organizationId, c.id, ...values(c)]);
    return rows.length === 1;
  }

  async addRecipients(_organizationId: string, campaignId: string, recipients: readonly CampaignRecipient[]): Promise<void> {
    if (recipients.length === 0) return;
    const rows = await sqlRows(this.#em, `insert into campaign_recipients (campaign_id, contact_id, message_id, skip_reason)
      select $1, contact_id, message_id, skip_reason from unnest($2::text[], $3::text[], $4::text[]) as r (contact_id, message_id, skip_reason)
      on conflict do nothing returning 1`,
    [campaignId, recipients.map((r) => r.contactId), recipients.map((r) => r.messageId), recipients.map((r) => r.skipReason)]);
    // A conflict means another run already handed a contact to the pipeline: abort the batch (its transaction rolls back).
    if (rows.length !== recipients.length) throw new AppError('CONFLICT', 'campaign recipient already exists');
  }

  /** Served by the partial index campaigns_scheduled_due (migration 0022). */
  async lockDueScheduled(now: Date, limit: number): Promise<Campaign[]> {
    const rows = await sqlRows<Row>(this.#em, `select * from campaigns where status = 'SCHEDULED' and scheduled_at <= $1
      order by scheduled_at, id limit $2 for update skip locked`, [now, limit]);
    return rows.map(toCampaign);
  }

  /** Counts now, and keeps them as the campaign's latest snapshot (campaign_count_snapshots, migration 0061) for the views. */
  async counts(organizationId: string, campaignId: string): Promise<CampaignCounts> {
    const counts = await this.#count(this.#em, organizationId, campaignId);
    await this.#remember(this.#em, organizationId, campaignId, counts);
    return counts;
  }

  async recentCounts(organizationId: string, campaignId: string, maxAgeSeconds: number): Promise<CampaignCounts> {
    const latest = async (em: EntityManager) => (await sqlRows<{ counts: CampaignCounts; age: string | number }>(em,
      `select counts, extract(epoch from now() - counted_at) as age from campaign_count_snapshots where campaign_id = $1 and organization_id = $2`,
      [campaignId, organizationId]))[0];
    const found = await latest(this.#em);
    // A campaign below LARGE_CAMPAIGN is counted in milliseconds: always now. Larger ones answer a recent snapshot.
    if (!found || found.counts.recipients + found.counts.skipped < LARGE_CAMPAIGN) return this.counts(organizationId, campaignId);
    if (Number(found.age) <= maxAgeSeconds) return { ...EMPTY_COUNTS, ...found.counts };
    return this.#em.transactional(async (em) => {
      // One reader counts at a time (a count of a large campaign takes seconds); the others answer the latest there is.
      const [lock] = await sqlRows<{ ok: boolean }>(em, `select pg_try_advisory_xact_lock(hashtext('campaign-counts'), hashtext($1)) as ok`, [campaignId]);
      if (!lock?.ok) return { ...EMPTY_COUNTS, ...found.counts };
      const counts = await this.#count(em, organizationId, campaignId);
      await this.#remember(em, organizationId, campaignId, counts);
      return counts;
    });
  }

  async #remember(em: EntityManager, organizationId: string, campaignId: string, counts: CampaignCounts): Promise<void> {
    await sqlRows(em, `insert into campaign_count_snapshots (campaign_id, organization_id, counts, counted_at) select id, organization_id, $3::jsonb, now()
        from campaigns where id = $1 and organization_id = $2
      on conflict (campaign_id) do update set counts = excluded.counts, counted_at = excluded.counted_at`, [campaignId, organizationId, JSON.stringify(counts)]);
  }

  /**
   * The recipients joined with their messages. The messages table is partitioned by creation month: a
   * campaign's messages were created after it started, so the partitions before that are pruned.
   */
  async #count(em: EntityManager, organizationId: string, campaignId: string): Promise<CampaignCounts> {
    const rows = await sqlRows<{ status: string | null; n: string | number }>(em, `select m.status, count(*) as n from campaign_recipients r
      left join messages m on m.id = r.message_id and m.organization_id = $1
        and m.created_at >= (select coalesce(started_at, created_at) - interval '1 minute' from campaigns where id = $2)
      where r.campaign_id = $2 and exists (select 1 from campaigns c where c.id = $2 and c.organization_id = $1) group by m.status`, [organizationId, campaignId]);
    const counts = { ...EMPTY_COUNTS };
    for (const row of rows) {
      const n = Number(row.n);
      if (row.status === null) { counts.skipped += n; continue; }
      counts.recipients += n;
      const key = countKeyOf(row.status);
      if (key) counts[key] += n;
    }
    return counts;
  }
}
