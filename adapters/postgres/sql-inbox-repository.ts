import type { EntityManager } from '@mikro-orm/sql';
import { announcedChange, INBOX_CHANGE_MAX_BYTES, inboxItemView, type InboxChange, type InboxCounts, type InboxFilter, type InboxItem, type InboxMark, type InboxSettings } from '../../core/domain/inbox.ts';
import type { InboxPage, InboxRepository } from '../../core/ports/inbox-repository.ts';
import { sqlRows } from './sql-rows.ts';

/** The NOTIFY channel every process LISTENs on (PgInboxFeed). */
export const INBOX_NOTIFY_CHANNEL = 'nkra_inbox';

interface Row {
  id: string; organization_id: string; subscriber_id: string; message_id: string | null; subject: string | null; body: string;
  created_at: Date | string; seen_at: Date | string | null; read_at: Date | string | null; archived_at: Date | string | null;
}
interface SettingsRow { organization_id: string; app_id: string; secret_ciphertext: string; secret_hint: string; created_at: Date | string; rotated_at: Date | string }

/**
 * `inbox_items` and `inbox_settings` (migration 0030). Writes that change a feed NOTIFY
 * `nkra_inbox` in the same statement, so the change is announced when (and only if) it commits.
 */
export class SqlInboxRepository implements InboxRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async insert(item: InboxItem): Promise<{ item: InboxItem; created: boolean }> {
    const created = await this.insertMany([item]);
    if (created === 1 || !item.messageId) return { item, created: created === 1 };
    const [row] = await sqlRows<Row>(this.#em, 'select * from inbox_items where message_id = $1', [item.messageId], { prepare: true });
    return { item: row ? toItem(row) : item, created: false };
  }

  async insertMany(items: readonly InboxItem[]): Promise<number> {
    if (items.length === 0) return 0;
    // Changes are announced in groups that fit one NOTIFY payload (a broadcast of 10,000 items is ~400 notifications, not 10,000).
    let group = 0; let bytes = 2;
    const rows = items.map((i) => {
      const payload = notifyPayload({ kind: 'item', organizationId: i.organizationId, subscriberId: i.subscriberId, itemId: i.id, item: inboxItemView(i) });
      const size = Buffer.byteLength(payload) + 1;
      if (bytes + size > INBOX_CHANGE_MAX_BYTES) { group += 1; bytes = 2; }
      bytes += size;
      return { id: i.id, organization_id: i.organizationId, subscriber_id: i.subscriberId, message_id: i.messageId, subject: i.subject, body: i.body,
        created_at: i.createdAt.toISOString(), payload, grp: group };
    });
    const [result] = await sqlRows<{ n: number | string }>(this.#em, `with src as (
        select * from json_to_recordset($1::json) as x (id text, organization_id text, subscriber_id text, message_id text, subject text, body text, created_at timestamptz, payload text, grp int)),
      ins as (insert into inbox_items (id, organization_id, subscriber_id, message_id, subject, body, created_at)
        select id, organization_id, subscriber_id, message_id, subject, body, created_at from src on conflict do nothing returning id)
      select (select count(*) from ins) as n,
        (select count(*) from (select pg_notify('${INBOX_NOTIFY_CHANNEL}', '[' || string_agg(src.payload, ',' order by src.id) || ']')
          from ins join src on src.id = ins.id group by src.grp) notified) as notifications`, [JSON.stringify(rows)]);
    return Number(result?.n ?? 0);
  }

  async list(organizationId: string, subscriberId: string, query: { filter: InboxFilter; limit: number; before?: string | undefined }): Promise<InboxPage> {
    const filter = query.filter === 'archived' ? 'archived_at is not null' : query.filter === 'unread' ? 'archived_at is null and read_at is null' : 'archived_at is null';
    const rows = await sqlRows<Row>(this.#em, `select * from inbox_items where organization_id = $1 and subscriber_id = $2 and ${filter}
      and ($3::text is null or id < $3) order by id desc limit $4`, [organizationId, subscriberId, query.before ?? null, query.limit + 1]);
    const items = rows.slice(0, query.limit).map(toItem);
    return { items, nextCursor: rows.length > query.limit ? items[items.length - 1]!.id : null };
  }

  async listAfter(organizationId: string, subscriberId: string, afterId: string, limit: number): Promise<InboxItem[]> {
    const rows = await sqlRows<Row>(this.#em, `select * from inbox_items where organization_id = $1 and subscriber_id = $2 and id > $3 and archived_at is null
      order by id limit $4`, [organizationId, subscriberId, afterId, limit], { prepare: true });
    return rows.map(toItem);
  }

  async counts(organizationId: string, subscriberId: string): Promise<InboxCounts> {
    const [row] = await sqlRows<{ total: number | string; unread: number | string; unseen: number | string }>(this.#em, `select count(*) as total,
      count(*) filter (where read_at is null) as unread, count(*) filter (where seen_at is null) as unseen
      from inbox_items where organization_id = $1 and subscriber_id = $2 and archived_at is null`, [organizationId, subscriberId], { prepare: true });
    return { total: Number(row?.total ?? 0), unread: Number(row?.unread ?? 0), unseen: Number(row?.unseen ?? 0) };
  }

  async findById(organizationId: string, subscriberId: string, id: string): Promise<InboxItem | null> {
    const [row] = await sqlRows<Row>(this.#em, 'select * from inbox_items where organization_id = $1 and subscriber_id = $2 and id = $3',
      [organizationId, subscriberId, id], { prepare: true });
    return row ? toItem(row) : null;
  }

  async findByMessage(organizationId: string, messageId: string): Promise<InboxItem | null> {
    const [row] = await sqlRows<Row>(this.#em, 'select * from inbox_items where organization_id = $1 and message_id = $2', [organizationId, messageId], { prepare: true });
    return row ? toItem(row) : null;
  }

  async mark(organizationId: string, subscriberId: string, ids: readonly string[] | 'all', mark: InboxMark, now: Date): Promise<number> {
    const { set, changes } = MARK_SQL[mark];
    const payload = notifyPayload({ kind: 'marked', organizationId, subscriberId, itemIds: ids === 'all' ? 'all' : [...ids], mark });
    const [row] = await sqlRows<{ n: number | string }>(this.#em, `with upd as (update inbox_items set ${set}
        where organization_id = $1 and subscriber_id = $2 and ($3::text[] is null or id = any($3::text[])) and ${changes} and $4::timestamptz is not null returning id)
      select (select count(*) from upd) as n, (select count(*) from (select pg_notify('${INBOX_NOTIFY_CHANNEL}', $5::text) where exists (select 1 from upd)) s) as notified`,
    [organizationId, subscriberId, ids === 'all' ? null : [...ids], now, payload]);
    return Number(row?.n ?? 0);
  }

  async getSettings(organizationId: string): Promise<InboxSettings | null> {
    const [row] = await sqlRows<SettingsRow>(this.#em, 'select * from inbox_settings where organization_id = $1', [organizationId], { prepare: true });
    return row ? toSettings(row) : null;
  }

  async findSettingsByAppId(appId: string): Promise<InboxSettings | null> {
    const [row] = await sqlRows<SettingsRow>(this.#em, 'select * from inbox_settings where app_id = $1', [appId], { prepare: true });
    return row ? toSettings(row) : null;
  }

  async saveSettings(s: InboxSettings): Promise<void> {
    await sqlRows(this.#em, `insert into inbox_settings (organization_id, app_id, secret_ciphertext, secret_hint, created_at, rotated_at) values ($1, $2, $3, $4, $5, $6)
      on conflict (organization_id) do update set secret_ciphertext = excluded.secret_ciphertext, secret_hint = excluded.secret_hint, rotated_at = excluded.rotated_at`,
    [s.organizationId, s.appId, s.secretCiphertext, s.secretHint, s.createdAt, s.rotatedAt]);
  }
}

/** SET clause ($4 = now) and the condition under which the mark changes a row, per mark. */
const MARK_SQL: Record<InboxMark, { set: string; changes: string }> = {
  seen: { set: 'seen_at = coalesce(seen_at, $4)', changes: 'seen_at is null' },
  read: { set: 'seen_at = coalesce(seen_at, $4), read_at = coalesce(read_at, $4)', changes: '(read_at is null or seen_at is null)' },
  unread: { set: 'read_at = null', changes: 'read_at is not null' },
  archived: { set: 'seen_at = coalesce(seen_at, $4), read_at = coalesce(read_at, $4), archived_at = coalesce(archived_at, $4)', changes: 'archived_at is null' },
  unarchived: { set: 'archived_at = null', changes: 'archived_at is not null' },
};

/** The change as NOTIFY carries it (PostgreSQL's payload limit: announcedChange). */
export function notifyPayload(change: InboxChange): string {
  return JSON.stringify(announcedChange(change));
}

const date = (v: Date | string) => (v instanceof Date ? v : new Date(v));
const dateOrNull = (v: Date | string | null) => (v === null ? null : date(v));

function toItem(r: Row): InboxItem {
  return {
    id: r.id, organizationId: r.organization_id, subscriberId: r.subscriber_id, messageId: r.message_id, subject: r.subject, body: r.body,
    createdAt: date(r.created_at), seenAt: dateOrNull(r.seen_at), readAt: dateOrNull(r.read_at), archivedAt: dateOrNull(r.archived_at),
  };
}

function toSettings(r: SettingsRow): InboxSettings {
  return {
    organizationId: r.organization_id, appId: r.app_id, secretCiphertext: r.secret_ciphertext, secretHint: r.secret_hint,
    createdAt: date(r.created_at), rotatedAt: date(r.rotated_at),
  };
}
