import type { EntityManager } from '@mikro-orm/sql';
import type { DeliveryStatus } from '../../core/domain/channel.ts';
import type { Message } from '../../core/domain/message.ts';
import type { AcceptedDelivery, MessageAttempt, MessageStatusEvent, MessageStatusRepository } from '../../core/ports/message-status-repository.ts';
import { MessageEntity } from './entities/message-entity.ts';
import { fromSelected, MikroOrmMessageRepository, type SelectedRow } from './mikro-orm-message-repository.ts';
import { entityColumns, sqlRows } from './sql-rows.ts';

interface EventRow { id: string; message_id: string; organization_id: string; status: string; source: string; detail: string | null; created_at: Date | string }
interface AttemptRow {
  id: string; message_id: string; attempt: number; provider: string; outcome: string; retryable: boolean; error_code: string | null;
  error_message: string | null; provider_message_id: string | null; duration_ms: number; created_at: Date | string;
}

/** Status history and attempts in SQL; message lookups reuse the message repository's mapping. */
export class SqlMessageStatusRepository implements MessageStatusRepository {
  readonly #em: EntityManager;
  readonly #messages: MikroOrmMessageRepository;
  constructor(em: EntityManager) { this.#em = em; this.#messages = new MikroOrmMessageRepository(em); }

  async findByProviderRef(provider: string, providerMessageId: string): Promise<Message | null> {
    const rows = await this.#em.execute<{ id: string }[]>('select id from messages where provider = ? and provider_message_id = ? limit 1', [provider, providerMessageId]);
    return rows[0] ? this.#messages.findForDelivery(rows[0].id) : null;
  }

  async listAwaitingReport(provider: string, since: Date, limit: number): Promise<Message[]> {
    const rows = await this.#em.execute<{ id: string }[]>(
      `select id from messages where provider = ? and status = 'SENT' and sent_at >= ? order by sent_at limit ?`, [provider, since, limit]);
    const found = await Promise.all(rows.map((r) => this.#messages.findForDelivery(r.id)));
    return found.filter((m): m is Message => m !== null);
  }

  /** Prepared (sql-rows.ts): written on every delivery. */
  async recordEvent(e: MessageStatusEvent): Promise<void> {
    await sqlRows(this.#em, 'insert into message_status_events (id, message_id, organization_id, status, source, detail, created_at) values ($1, $2, $3, $4, $5, $6, $7)',
      [e.id, e.messageId, e.organizationId, e.status, e.source, e.detail, e.createdAt], { prepare: true });
  }

  async listEvents(messageId: string): Promise<MessageStatusEvent[]> {
    const rows = await this.#em.execute<EventRow[]>('select * from message_status_events where message_id = ? order by created_at, id limit 100', [messageId]);
    return rows.map((r) => ({ id: r.id, messageId: r.message_id, organizationId: r.organization_id, status: r.status as DeliveryStatus, source: r.source, detail: r.detail, createdAt: new Date(r.created_at) }));
  }

  /** Prepared (sql-rows.ts): written on every delivery. */
  async recordAttempt(a: MessageAttempt): Promise<void> {
    await sqlRows(this.#em,
      `insert into message_attempts (id, message_id, attempt, provider, outcome, retryable, error_code, error_message, provider_message_id, duration_ms, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [a.id, a.messageId, a.attempt, a.provider, a.outcome, a.retryable, a.errorCode, a.errorMessage?.slice(0, 1000) ?? null, a.providerMessageId, a.durationMs, a.createdAt],
      { prepare: true });
  }

  /**
   * One round trip for the three writes of a batch of accepted attempts (data-modifying CTEs over
   * one JSON parameter): the attempt rows, the conditional PENDING -> SENT/DELIVERED update, and the
   * status events built from the updated rows. Prepared: the text is the same whatever the batch size.
   *
   * The status the row must be in (PENDING) comes with the input, not as a literal: with `status =
   * 'PENDING'` the planner could prove the partial index of waiting messages (`messages_waiting_channel`)
   * and, estimating one PENDING row from statistics taken when none were, scanned every PENDING entry of
   * that index (live and dead) and filtered by id (seen with auto_explain during bench:fair-share). A
   * vendor outage leaves thousands PENDING between retries; each record statement would read them all.
   * A join column cannot prove the index's predicate: the rows are found by primary key.
   */
  async recordAcceptedAttempts(accepted: readonly AcceptedDelivery[]): Promise<Message[]> {
    if (accepted.length === 0) return [];
    const { selectList } = entityColumns(this.#em, MessageEntity);
    const input = accepted.map(({ attempt: a, status, at, event }) => ({
      attempt_id: a.id, message_id: a.messageId, attempt: a.attempt, provider: a.provider, provider_message_id: a.providerMessageId,
      duration_ms: a.durationMs, attempted_at: a.createdAt, new_status: status, at, event_id: event.id, source: event.source, from_status: 'PENDING',
    }));
    const rows = await sqlRows<SelectedRow>(this.#em, `with input as (
        select * from json_to_recordset($1::json) as x (attempt_id text, message_id text, attempt integer, provider text, provider_message_id text,
          duration_ms integer, attempted_at timestamptz, new_status text, at timestamptz, event_id text, source text, from_status text)),
      attempt as (
        insert into message_attempts (id, message_id, attempt, provider, outcome, retryable, error_code, error_message, provider_message_id, duration_ms, created_at)
        select attempt_id, message_id, input.attempt, input.provider, 'ACCEPTED', false, null, null, input.provider_message_id, duration_ms, attempted_at from input),
      moved as (
        update messages set status = input.new_status, provider = input.provider, provider_message_id = input.provider_message_id, error_code = null, error_message = null,
          sent_at = input.at, delivered_at = case when input.new_status = 'DELIVERED' then input.at end, lease_until = null, sealed_content = null, updated_at = input.at
        from input where messages.id = input.message_id and messages.status = input.from_status
        returning ${qualified(selectList)}, input.event_id as "eventId", input.source as "eventSource"),
      event as (insert into message_status_events (id, message_id, organization_id, status, source, detail, created_at)
        select "eventId", "id", "organizationId", "status", "eventSource", "errorCode", "updatedAt" from moved)
      select * from moved`, [JSON.stringify(input)], { prepare: true });
    return rows.map(fromSelected);
  }

  async listAttempts(messageId: string): Promise<MessageAttempt[]> {
    const rows = await this.#em.execute<AttemptRow[]>('select * from message_attempts where message_id = ? order by created_at, id limit 100', [messageId]);
    return rows.map((r) => ({
      id: r.id, messageId: r.message_id, attempt: Number(r.attempt), provider: r.provider, outcome: r.outcome as MessageAttempt['outcome'],
      retryable: r.retryable, errorCode: r.error_code, errorMessage: r.error_message, providerMessageId: r.provider_message_id,
      durationMs: Number(r.duration_ms), createdAt: new Date(r.created_at),
    }));
  }
}

/** `column as "property", ...` with every column taken from `messages` (an update joined to its input). */
function qualified(selectList: string): string {
  return selectList.split(', ').map((item) => `messages.${item}`).join(', ');
}
