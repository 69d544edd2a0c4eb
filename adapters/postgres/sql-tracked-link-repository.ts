import type { EntityManager } from '@mikro-orm/sql';
import { MAX_TRACKED_LINKS_PER_MESSAGE } from '../../core/domain/tracked-links.ts';
import type { ClickRate, ClickRateGroup, ClickTally, FirstClick, TrackedLink, TrackedLinkRepository } from '../../core/ports/tracked-link-repository.ts';
import { sqlRows, toDate } from './sql-rows.ts';

interface Row {
  code: string; organization_id: string; message_id: string; template_id: string | null; url: string;
  created_at: Date | string; expires_at: Date | string | null; clicks?: string | number; unique_clicks?: string | number; first_clicked_at?: Date | string | null;
}

const MAX_GROUPS = 500;

/** `tracked_links` (migration 0065): looked up by its primary key on every redirect. */
export class SqlTrackedLinkRepository implements TrackedLinkRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  /**
   * One statement for the batch. The expiry given (the platform's retention) is shortened to the
   * organization's own message retention where retention_overrides has a shorter one (docs/operations.md).
   */
  async insertMany(links: readonly TrackedLink[]): Promise<void> {
    if (links.length === 0) return;
    await sqlRows(this.#em, `insert into tracked_links (code, organization_id, message_id, template_id, url, created_at, expires_at)
      select t.code, t.org, t.message_id, t.template_id, t.url, t.created_at,
        case when o.messages_months is null then t.expires_at
             else least(coalesce(t.expires_at, 'infinity'::timestamptz), t.created_at + make_interval(months => o.messages_months)) end
      from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::timestamptz[])
        as t(code, org, message_id, template_id, url, created_at, expires_at)
      left join retention_overrides o on o.organization_id = t.org`,
    [links.map((l) => l.code), links.map((l) => l.organizationId), links.map((l) => l.messageId), links.map((l) => l.templateId),
      links.map((l) => l.url), links.map((l) => l.createdAt), links.map((l) => l.expiresAt)], { prepare: true });
  }

  async findByCode(code: string): Promise<TrackedLink | null> {
    const [row] = await sqlRows<Row>(this.#em, 'select code, organization_id, message_id, template_id, url, created_at, expires_at from tracked_links where code = $1', [code], { prepare: true });
    return row ? toLink(row) : null;
  }

  async findManyByCodes(codes: readonly string[]): Promise<TrackedLink[]> {
    if (codes.length === 0) return [];
    const rows = await sqlRows<Row>(this.#em, 'select code, organization_id, message_id, template_id, url, created_at, expires_at from tracked_links where code = any($1::text[])',
      [[...new Set(codes)].slice(0, 1_000)], { prepare: true });
    return rows.map(toLink);
  }

  /** One statement: locks the links in code order (two flushers never deadlock) and reports the ones clicked for the first time. */
  async addClicks(tallies: readonly ClickTally[]): Promise<FirstClick[]> {
    if (tallies.length === 0) return [];
    const sorted = [...tallies].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
    const rows = await sqlRows<Row & { first_clicked_at: Date | string }>(this.#em, `with t as (
        select * from unnest($1::text[], $2::bigint[], $3::bigint[], $4::timestamptz[]) as t(code, clicks, uniq, at)),
      old as (select l.code, l.first_clicked_at from tracked_links l join t on t.code = l.code order by l.code for update of l),
      up as (update tracked_links l set clicks = l.clicks + t.clicks, unique_clicks = l.unique_clicks + t.uniq,
          first_clicked_at = coalesce(l.first_clicked_at, t.at), last_clicked_at = greatest(l.last_clicked_at, t.at)
        from t where l.code = t.code and exists (select 1 from old where old.code = l.code)
        returning l.code, l.organization_id, l.message_id, l.template_id, l.url, l.created_at, l.expires_at, l.first_clicked_at)
      select up.* from up join old on old.code = up.code where old.first_clicked_at is null`,
    [sorted.map((t) => t.code), sorted.map((t) => t.clicks), sorted.map((t) => t.uniqueClicks), sorted.map((t) => t.firstAt)]);
    return rows.map((r) => ({ code: r.code, organizationId: r.organization_id, messageId: r.message_id, templateId: r.template_id, url: r.url, clickedAt: toDate(r.first_clicked_at)! }));
  }

  async purgeExpired(now: Date, limit: number): Promise<number> {
    const rows = await sqlRows<{ code: string }>(this.#em, `delete from tracked_links where code in (
      select code from tracked_links where expires_at < $1 order by expires_at limit $2) returning code`, [now, limit]);
    return rows.length;
  }

  async clickRates(organizationId: string, by: ClickRateGroup, from: Date, to: Date): Promise<ClickRate[]> {
    const source = by === 'template'
      ? `select l.template_id as key, l.message_id, l.clicks, l.unique_clicks from tracked_links l
         where l.organization_id = $1 and l.created_at >= $2 and l.created_at < $3 and l.template_id is not null and l.url <> 'open:'`
      : by === 'locale'
      // A link is written in its message's transaction: the message was created within a minute of it (partitions pruned).
      ? `select m.locale as key, l.message_id, l.clicks, l.unique_clicks from tracked_links l
         join messages m on m.id = l.message_id and m.organization_id = $1
           and m.created_at >= $2::timestamptz - interval '1 minute' and m.created_at < $3::timestamptz + interval '1 minute'
         where l.organization_id = $1 and l.created_at >= $2 and l.created_at < $3 and m.locale is not null and l.url <> 'open:'`
      : `select r.campaign_id as key, l.message_id, l.clicks, l.unique_clicks from tracked_links l
         join campaign_recipients r on r.message_id = l.message_id
         join campaigns c on c.id = r.campaign_id and c.organization_id = $1
         where l.organization_id = $1 and l.created_at >= $2 and l.created_at < $3 and l.url <> 'open:'`;
    const rows = await sqlRows<{ key: string; messages: string; clicked_messages: string; clicks: string; unique_clicks: string }>(this.#em,
      `select key, count(*) as messages, count(*) filter (where clicks > 0) as clicked_messages, sum(clicks) as clicks, sum(unique_clicks) as unique_clicks
       from (select key, message_id, sum(clicks) as clicks, sum(unique_clicks) as unique_clicks from (${source}) s group by key, message_id) m
       group by key order by count(*) desc, key limit ${MAX_GROUPS}`, [organizationId, from, to]);
    return rows.map((r) => ({ key: r.key, messages: Number(r.messages), clickedMessages: Number(r.clicked_messages), clicks: Number(r.clicks), uniqueClicks: Number(r.unique_clicks) }));
  }

  async listForMessage(organizationId: string, messageId: string): Promise<Array<TrackedLink & { clicks: number; uniqueClicks: number; firstClickedAt: Date | null }>> {
    const rows = await sqlRows<Row>(this.#em, `select * from tracked_links where message_id = $1 and organization_id = $2 order by created_at, code limit ${MAX_TRACKED_LINKS_PER_MESSAGE + 1}`,
      [messageId, organizationId]);
    return rows.map((r) => ({ ...toLink(r), clicks: Number(r.clicks ?? 0), uniqueClicks: Number(r.unique_clicks ?? 0), firstClickedAt: toDate(r.first_clicked_at ?? null) }));
  }
}

function toLink(r: Row): TrackedLink {
  return { code: r.code, organizationId: r.organization_id, messageId: r.message_id, templateId: r.template_id, url: r.url, createdAt: toDate(r.created_at)!, expiresAt: toDate(r.expires_at) };
}
