import type { InferEntity } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import type { Channel, DeliveryStatus, TemplateCategory } from '../../core/domain/channel.ts';
import type { Message } from '../../core/domain/message.ts';
import type { PushContent } from '../../core/domain/push-content.ts';
import type { WhatsappTemplateSend } from '../../core/domain/whatsapp-template.ts';
import { recipientCountKey, type DeliveryLogFilter, type MessagePage, type MessagePatch, type MessageRepository } from '../../core/ports/message-repository.ts';
import { MessageEntity } from './entities/message-entity.ts';
import { entityColumns, sqlRows, toDate } from './sql-rows.ts';

type Row = InferEntity<typeof MessageEntity>;
const STREAM_CHUNK = 1_000;

export class MikroOrmMessageRepository implements MessageRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  /**
   * One prepared statement with one parameter whatever the batch size, the rows as JSON (strings made
   * well-formed, as encoding a query to UTF-8 does): cheaper than the ORM's insertMany (docs/performance.md).
   */
  async insertMany(messages: readonly Message[]): Promise<void> {
    if (messages.length === 0) return;
    const { columns } = entityColumns(this.#em, MessageEntity);
    const list = [...columns.values()].join(', ');
    const value = (v: unknown) => (typeof v === 'string' ? v.toWellFormed() : v);
    const rows = messages.map((m) => Object.fromEntries([...columns].map(([name, column]) => [column, value(m[name as keyof Message])])));
    await sqlRows(this.#em, `insert into messages (${list}) select ${list} from json_populate_recordset(null::messages, $1::json)`, [JSON.stringify(rows)], { prepare: true });
  }

  async findById(organizationId: string, id: string): Promise<Message | null> {
    const row = await this.#em.findOne(MessageEntity, { organizationId, id }, { disableIdentityMap: true });
    return row ? toMessage(row) : null;
  }

  async findManyByIds(organizationId: string, ids: readonly string[]): Promise<Message[]> {
    if (ids.length === 0) return [];
    const rows = await this.#em.find(MessageEntity, { organizationId, id: { $in: [...ids] } }, { disableIdentityMap: true });
    const byId = new Map(rows.map((r) => [r.id, toMessage(r)]));
    return ids.flatMap((id) => { const m = byId.get(id); return m ? [m] : []; });
  }

  async findForDelivery(id: string): Promise<Message | null> {
    const [row] = await sqlRows<SelectedRow>(this.#em, `select ${entityColumns(this.#em, MessageEntity).selectList} from messages where id = $1`, [id], { prepare: true });
    return row ? fromSelected(row) : null;
  }

  /** One statement: the conditional update returns the row it changed. */
  async transition(id: string, from: readonly DeliveryStatus[], patch: MessagePatch, leaseFreeAt?: Date): Promise<Message | null> {
    const { columns, selectList } = entityColumns(this.#em, MessageEntity);
    const params: unknown[] = [id, [...from]];
    const set = Object.entries(patch).filter(([, value]) => value !== undefined).map(([name, value]) => {
      const column = columns.get(name);
      if (!column) throw new Error(`messages has no column for ${name}`);
      params.push(value);
      return `${column} = $${params.length}`;
    });
    let where = 'id = $1 and status = any($2::text[])';
    if (leaseFreeAt) { params.push(leaseFreeAt); where += ` and (lease_until is null or lease_until <= $${params.length})`; }
    const [row] = await sqlRows<SelectedRow>(this.#em, `update messages set ${set.join(', ')} where ${where} returning ${selectList}`, params, { prepare: true });
    return row ? fromSelected(row) : null;
  }

  /** One statement, prepared: the conditional update returns the rows it claimed. */
  async releaseAbandonedClaims(now: Date, limit: number): Promise<string[]> {
    const rows = await sqlRows<{ id: string }>(this.#em, `update messages set lease_until = null, updated_at = $1
      where id in (select id from messages where status = 'PENDING' and lease_until < $1 order by lease_until limit $2 for update skip locked)
      returning id`, [now, limit]);
    return rows.map((r) => r.id);
  }

  /** Served by the partial index messages_scheduled_due (scheduled_at, id) where status = 'SCHEDULED' (migration 0021). */
  async lockDueScheduled(now: Date, limit: number): Promise<Message[]> {
    const rows = await sqlRows<SelectedRow>(this.#em, `select ${entityColumns(this.#em, MessageEntity).selectList} from messages
      where status = 'SCHEDULED' and scheduled_at <= $1 order by scheduled_at, id limit $2 for update skip locked`, [now, limit], { prepare: true });
    return rows.map(fromSelected);
  }

  async releaseScheduled(ids: readonly string[], now: Date): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await sqlRows<{ id: string }>(this.#em, `update messages set status = 'QUEUED', updated_at = $2
      where id = any($1::text[]) and status = 'SCHEDULED' returning id`, [[...new Set(ids)], now], { prepare: true });
    return rows.map((r) => r.id);
  }

  async claimManyForDelivery(ids: readonly string[], now: Date, leaseUntil: Date): Promise<Message[]> {
    if (ids.length === 0) return [];
    const rows = await sqlRows<SelectedRow>(this.#em, `update messages set status = 'PENDING', attempts = attempts + 1, lease_until = $3, updated_at = $2
      where id = any($1::text[]) and status in ('QUEUED', 'PENDING') and (lease_until is null or lease_until <= $2)
      returning ${entityColumns(this.#em, MessageEntity).selectList}`, [[...new Set(ids)], now, leaseUntil], { prepare: true });
    return rows.map(fromSelected);
  }

  async list(organizationId: string, filter: DeliveryLogFilter, offset: number, limit: number, countUpTo?: number): Promise<MessagePage> {
    const [rows, total] = await Promise.all([
      limit > 0 ? this.#newestFirst(organizationId, filter, null, offset, limit) : Promise.resolve([]),
      countUpTo === undefined ? this.#em.fork().count(MessageEntity, whereOf(organizationId, filter)) : this.#countUpTo(organizationId, filter, countUpTo),
    ]);
    return { items: rows.map(fromSelected), total };
  }

  /** Keyset chunks: each query starts below the last row seen, (created_at, id) < last, so no chunk rescans earlier rows. */
  async *stream(organizationId: string, filter: DeliveryLogFilter, limit: number): AsyncIterable<Message> {
    let remaining = limit;
    let before: SelectedRow | null = null;
    while (remaining > 0) {
      const size = Math.min(STREAM_CHUNK, remaining);
      const rows = await this.#newestFirst(organizationId, filter, before, 0, size);
      for (const row of rows) yield fromSelected(row);
      if (rows.length < size) return;
      remaining -= rows.length;
      before = rows[rows.length - 1]!;
    }
  }

  /**
   * Delivery logs newest first in plain SQL: hydrating entities costs about 20 ms per 1,000 rows, five
   * times the query (docs/performance.md, bench:logs). The order is served by the (organization_id[,
   * status][, channel], created_at desc, id desc) indexes, through nkra_delivery_log_page (a page by
   * offset: the skipped rows counted on the index alone) and nkra_delivery_log_chunk (the export's
   * keyset chunks), migration 0041: their statements keep a generic plan, so a list over every monthly
   * partition is not planned on each call (docs/adr/0030-delivery-log-generic-plans.md).
   */
  async #newestFirst(organizationId: string, filter: DeliveryLogFilter, before: SelectedRow | null, offset: number, limit: number): Promise<SelectedRow[]> {
    const { selectList } = entityColumns(this.#em, MessageEntity);
    const filters = [organizationId, filter.status ?? null, filter.channel ?? null];
    // The cursor is the database's own text of created_at: a JS Date would drop microseconds and skip rows.
    return before
      ? sqlRows<SelectedRow>(this.#em, `select ${selectList} from nkra_delivery_log_chunk($1, $2, $3, $4::timestamptz, $5, $6)`,
        [...filters, before.createdAt, before.id, limit], { prepare: true })
      : sqlRows<SelectedRow>(this.#em, `select ${selectList} from nkra_delivery_log_page($1, $2, $3, $4, $5)`, [...filters, limit, offset], { prepare: true });
  }

  /** Counts at most `cap` rows: an index-only scan of a bounded range, a few milliseconds however many rows match. */
  async #countUpTo(organizationId: string, filter: DeliveryLogFilter, cap: number): Promise<number> {
    const [row] = await sqlRows<{ n: string | number }>(this.#em, 'select nkra_delivery_log_count($1, $2, $3, $4) as n',
      [organizationId, filter.status ?? null, filter.channel ?? null, cap], { prepare: true });
    return Number(row?.n ?? 0);
  }

  async countSince(organizationId: string, since: Date): Promise<number> {
    return this.#em.count(MessageEntity, { organizationId, createdAt: { $gte: since }, status: { $ne: 'REJECTED' } });
  }

  /** Not prepared: a generic plan filters the organization's whole hour instead of looking up the recipients (14 ms at 30,000 messages). */
  async countSinceByRecipient(since: Date, pairs: ReadonlyArray<{ organizationId: string; recipient: string }>): Promise<Map<string, number>> {
    if (pairs.length === 0) return new Map();
    const distinct = [...new Map(pairs.map((p) => [recipientCountKey(p.organizationId, p.recipient), p])).values()];
    // One index probe per (organization, recipient) pair: `organization_id = any(...) and recipient = any(...)`
    // would probe the cross product (ten organizations of a shared batch: ten times the probes).
    const rows = await sqlRows<{ organization_id: string; recipient: string; n: string | number }>(this.#em,
      `select p.organization_id, p.recipient, count(*) as n
         from unnest($1::text[], $2::text[]) as p (organization_id, recipient)
         join messages m on m.organization_id = p.organization_id and m.recipient = p.recipient
        where m.created_at >= $3 and m.status <> 'REJECTED'
        group by p.organization_id, p.recipient`,
      [distinct.map((p) => p.organizationId), distinct.map((p) => p.recipient), since]);
    return new Map(rows.map((r) => [recipientCountKey(r.organization_id, r.recipient), Number(r.n)]));
  }
}

function whereOf(organizationId: string, filter: DeliveryLogFilter) {
  const where: { organizationId: string; status?: string; channel?: string } = { organizationId };
  if (filter.status) where.status = filter.status;
  if (filter.channel) where.channel = filter.channel;
  return where;
}

/** A raw row selected with the entity's property names as column aliases; timestamps may arrive as text. */
export type SelectedRow = Omit<Row, DateKey> & Record<DateKey, Date | string | null>;
type DateKey = 'scheduledAt' | 'leaseUntil' | 'createdAt' | 'updatedAt' | 'sentAt' | 'deliveredAt' | 'failedAt';

export function fromSelected(row: SelectedRow): Message {
  return toMessage({
    ...row, scheduledAt: toDate(row.scheduledAt), leaseUntil: toDate(row.leaseUntil), createdAt: toDate(row.createdAt)!, updatedAt: toDate(row.updatedAt)!,
    sentAt: toDate(row.sentAt), deliveredAt: toDate(row.deliveredAt), failedAt: toDate(row.failedAt),
  } as Row);
}

function toMessage(row: Row): Message {
  return {
    id: row.id, organizationId: row.organizationId, internalMessageId: row.internalMessageId, channel: row.channel as Channel,
    recipient: row.recipient, country: row.country ?? null, network: row.network ?? null, subject: row.subject ?? null, body: row.body,
    push: typeof row.push === 'string' ? (JSON.parse(row.push) as PushContent) : row.push ?? null, templateId: row.templateId ?? null,
    category: row.category as TemplateCategory, status: row.status as DeliveryStatus, scheduledAt: row.scheduledAt ?? null, errorCode: row.errorCode ?? null, errorMessage: row.errorMessage ?? null,
    cost: Number(row.cost), price: Number(row.price), segments: row.segments, encoding: (row.encoding as Message['encoding']) ?? null,
    isSandbox: row.isSandbox, apiKeyId: row.apiKeyId ?? null, userId: row.userId ?? null, senderId: row.senderId ?? null,
    provider: row.provider ?? null, providerMessageId: row.providerMessageId ?? null, attempts: row.attempts,
    leaseUntil: row.leaseUntil ?? null, createdAt: row.createdAt, updatedAt: row.updatedAt,
    sentAt: row.sentAt ?? null, deliveredAt: row.deliveredAt ?? null, failedAt: row.failedAt ?? null,
    ...(row.sealedContent ? { sealedContent: row.sealedContent } : {}),
    ...(row.locale ? { locale: row.locale } : {}),
    ...(row.whatsappTemplate ? { whatsappTemplate: typeof row.whatsappTemplate === 'string' ? JSON.parse(row.whatsappTemplate) as WhatsappTemplateSend : row.whatsappTemplate } : {}),
  };
}
