import type { InferEntity } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import type { Channel, DeliveryStatus } from '../../core/domain/channel.ts';
import type { Message } from '../../core/domain/message.ts';
import type { DeliveryLogFilter, MessagePage, MessagePatch, MessageRepository } from '../../core/ports/message-repository.ts';
import { MessageEntity } from './entities/message-entity.ts';

type Row = InferEntity<typeof MessageEntity>;
const STREAM_CHUNK = 500;

export class MikroOrmMessageRepository implements MessageRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async insertMany(messages: readonly Message[]): Promise<void> {
    if (messages.length === 0) return;
    await this.#em.insertMany(MessageEntity, messages.map((m) => ({ ...m })));
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
    const row = await this.#em.findOne(MessageEntity, { id }, { disableIdentityMap: true });
    return row ? toMessage(row) : null;
  }

  async transition(id: string, from: readonly DeliveryStatus[], patch: MessagePatch, leaseFreeAt?: Date): Promise<Message | null> {
    const where: Record<string, unknown> = { id, status: { $in: [...from] } };
    if (leaseFreeAt) where['$or'] = [{ leaseUntil: null }, { leaseUntil: { $lte: leaseFreeAt } }];
    const updated = await this.#em.nativeUpdate(MessageEntity, where as never, { ...patch });
    return updated === 1 ? this.findForDelivery(id) : null;
  }

  async list(organizationId: string, filter: DeliveryLogFilter, offset: number, limit: number): Promise<MessagePage> {
    const where = whereOf(organizationId, filter);
    const [rows, total] = await Promise.all([
      this.#em.find(MessageEntity, where, { orderBy: { createdAt: 'desc', id: 'desc' }, limit, offset, disableIdentityMap: true }),
      this.#em.fork().count(MessageEntity, where),
    ]);
    return { items: rows.map(toMessage), total };
  }

  async *stream(organizationId: string, filter: DeliveryLogFilter, limit: number): AsyncIterable<Message> {
    let remaining = limit;
    let after: { createdAt: Date; id: string } | null = null;
    while (remaining > 0) {
      const where: Record<string, unknown> = { ...whereOf(organizationId, filter) };
      if (after) where['$or'] = [{ createdAt: { $lt: after.createdAt } }, { createdAt: after.createdAt, id: { $lt: after.id } }];
      const rows: Row[] = await this.#em.find(MessageEntity, where as never, {
        orderBy: { createdAt: 'desc', id: 'desc' }, limit: Math.min(STREAM_CHUNK, remaining), disableIdentityMap: true,
      });
      for (const row of rows) yield toMessage(row);
      if (rows.length < Math.min(STREAM_CHUNK, remaining)) return;
      remaining -= rows.length;
      const last = rows[rows.length - 1]!;
      after = { createdAt: last.createdAt, id: last.id };
    }
  }

  async countSince(organizationId: string, since: Date): Promise<number> {
    return this.#em.count(MessageEntity, { organizationId, createdAt: { $gte: since }, status: { $ne: 'REJECTED' } });
  }

  async countSinceByRecipient(organizationId: string, since: Date, recipients: readonly string[]): Promise<Map<string, number>> {
    if (recipients.length === 0) return new Map();
    const unique = [...new Set(recipients)];
    const rows = await this.#em.execute<{ recipient: string; n: string | number }[]>(
      `select recipient, count(*) as n from messages
        where organization_id = ? and recipient in (${unique.map(() => '?').join(', ')}) and created_at >= ? and status <> 'REJECTED'
        group by recipient`,
      [organizationId, ...unique, since]);
    return new Map(rows.map((r) => [r.recipient, Number(r.n)]));
  }
}

function whereOf(organizationId: string, filter: DeliveryLogFilter) {
  const where: { organizationId: string; status?: string; channel?: string } = { organizationId };
  if (filter.status) where.status = filter.status;
  if (filter.channel) where.channel = filter.channel;
  return where;
}

function toMessage(row: Row): Message {
  return {
    id: row.id, organizationId: row.organizationId, internalMessageId: row.internalMessageId, channel: row.channel as Channel,
    recipient: row.recipient, country: row.country ?? null, subject: row.subject ?? null, body: row.body, templateId: row.templateId ?? null,
    status: row.status as DeliveryStatus, errorCode: row.errorCode ?? null, errorMessage: row.errorMessage ?? null,
    cost: Number(row.cost), price: Number(row.price), segments: row.segments, encoding: (row.encoding as Message['encoding']) ?? null,
    isSandbox: row.isSandbox, apiKeyId: row.apiKeyId ?? null, userId: row.userId ?? null, senderId: row.senderId ?? null,
    provider: row.provider ?? null, providerMessageId: row.providerMessageId ?? null, attempts: row.attempts,
    leaseUntil: row.leaseUntil ?? null, createdAt: row.createdAt, updatedAt: row.updatedAt,
    sentAt: row.sentAt ?? null, deliveredAt: row.deliveredAt ?? null, failedAt: row.failedAt ?? null,
  };
}
