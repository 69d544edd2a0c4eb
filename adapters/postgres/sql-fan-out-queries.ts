import type { EntityManager } from '@mikro-orm/sql';
import type { FanOut, FanOutKind, FanOutPatch, FanOutRecipient, FanOutStatus } from '../../core/domain/fan-out.ts';
import { textArrayLiteral } from './sql-array-literal.ts';
import { sqlRows, toDate } from './sql-rows.ts';

type Row = Record<string, unknown>;

function toFanOut(r: Row): FanOut {
  return {
    id: r['id'] as string, organizationId: r['organization_id'] as string, eventId: r['event_id'] as string, eventSlug: r['event_slug'] as string,
    kind: r['kind'] as FanOutKind, segmentId: r['segment_id'] as string | null, topic: r['topic'] as string | null,
    request: typeof r['request'] === 'string' ? JSON.parse(r['request']) : r['request'] as FanOut['request'],
    status: r['status'] as FanOutStatus, cursor: r['cursor'] as string | null, total: Number(r['total']), processed: Number(r['processed']),
    started: Number(r['started']), skipped: Number(r['skipped']), failureReason: r['failure_reason'] as string | null,
    apiKeyId: r['api_key_id'] as string | null, userId: r['user_id'] as string | null, isSandbox: r['is_sandbox'] as boolean,
    createdAt: toDate(r['created_at'] as Date)!, updatedAt: toDate(r['updated_at'] as Date)!, completedAt: toDate(r['completed_at'] as Date | null),
  };
}

const COLUMNS: Record<keyof FanOutPatch, string> = {
  status: 'status', cursor: 'cursor', processed: 'processed', started: 'started', skipped: 'skipped',
  failureReason: 'failure_reason', completedAt: 'completed_at', updatedAt: 'updated_at',
};

/** The fan-out half of SqlWorkflowRepository (migration 0067). */
export const sqlFanOuts = {
  async insert(em: EntityManager, f: FanOut): Promise<void> {
    await sqlRows(em, `insert into event_fan_outs (id, organization_id, event_id, event_slug, kind, segment_id, topic, request, status, cursor, total,
      processed, started, skipped, failure_reason, api_key_id, user_id, is_sandbox, created_at, updated_at, completed_at)
      values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)`,
    [f.id, f.organizationId, f.eventId, f.eventSlug, f.kind, f.segmentId, f.topic, JSON.stringify(f.request), f.status, f.cursor, f.total,
      f.processed, f.started, f.skipped, f.failureReason, f.apiKeyId, f.userId, f.isSandbox, f.createdAt, f.updatedAt, f.completedAt]);
  },

  async find(em: EntityManager, organizationId: string, id: string, lock: boolean): Promise<FanOut | null> {
    const rows = await sqlRows<Row>(em, `select * from event_fan_outs where organization_id = $1 and id = $2${lock ? ' for update' : ''}`, [organizationId, id], { prepare: true });
    return rows[0] ? toFanOut(rows[0]) : null;
  },

  async update(em: EntityManager, organizationId: string, id: string, patch: FanOutPatch): Promise<void> {
    const params: unknown[] = [organizationId, id];
    const sets: string[] = [];
    for (const [key, value] of Object.entries(patch)) {
      const column = COLUMNS[key as keyof FanOutPatch];
      if (!column || value === undefined) continue;
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    }
    if (sets.length > 0) await sqlRows(em, `update event_fan_outs set ${sets.join(', ')} where organization_id = $1 and id = $2`, params);
  },

  async claim(em: EntityManager, organizationId: string, fanOutId: string, recipients: readonly FanOutRecipient[]): Promise<string[]> {
    if (recipients.length === 0) return [];
    const list = (pick: (r: FanOutRecipient) => string | null) => textArrayLiteral(recipients.map(pick));
    const rows = await sqlRows<{ contact_id: string }>(em, `insert into event_fan_out_recipients (fan_out_id, contact_id, organization_id, run_id, trigger_id, skip_reason)
      select $1, u.contact_id, $2, u.run_id, u.trigger_id, u.skip_reason
      from unnest($3::text[], $4::text[], $5::text[], $6::text[]) as u(contact_id, run_id, trigger_id, skip_reason)
      on conflict (fan_out_id, contact_id) do nothing returning contact_id`,
    [fanOutId, organizationId, list((r) => r.contactId), list((r) => r.runId), list((r) => r.triggerId), list((r) => r.skipReason)]);
    const inserted = new Set(rows.map((r) => r.contact_id));
    return recipients.map((r) => r.contactId).filter((id) => inserted.has(id));
  },

  async count(em: EntityManager, organizationId: string, fanOutId: string, afterContactId: string | null, upToContactId: string): Promise<{ started: number; skipped: number }> {
    const rows = await sqlRows<{ started: string; skipped: string }>(em, `select count(*) filter (where skip_reason is null) as started,
      count(*) filter (where skip_reason is not null) as skipped from event_fan_out_recipients
      where fan_out_id = $1 and organization_id = $2 and contact_id > $3 and contact_id <= $4`,
    [fanOutId, organizationId, afterContactId ?? '', upToContactId], { prepare: true });
    return { started: Number(rows[0]?.started ?? 0), skipped: Number(rows[0]?.skipped ?? 0) };
  },
};
