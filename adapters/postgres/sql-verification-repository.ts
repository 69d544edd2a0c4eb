import type { EntityManager } from '@mikro-orm/sql';
import type { Verification, VerificationSend, VerificationStatus, VerifyChannel, VerifyLocale, VerifySettings } from '../../core/domain/verification.ts';
import type { RecordedCode, VerificationRepository, VerifyConversionRow } from '../../core/ports/verification-repository.ts';
import { sqlRows } from './sql-rows.ts';
import { translateUniqueViolation } from './db-errors.ts';

interface Row {
  id: string; organization_id: string; recipient: string; country: string | null; prefix: string | null; channels: VerifyChannel[] | string;
  channel_index: number; status: VerificationStatus; code_hash: string; code_length: number; locale: VerifyLocale; template: string | null;
  expires_at: Date | string; fallback_after_seconds: number; send_attempts: number; check_attempts: number;
  sends: Array<{ channel: VerifyChannel; messageId: string; createdAt: string }> | string; last_sent_at: Date | string; ip_address: string | null; idempotency_key: string | null;
  approved_at: Date | string | null; created_at: Date | string; updated_at: Date | string; sandbox_code: string | null;
}

const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

/** `verifications` and `verify_settings` (migration 0019). Every limit is a condition of one update statement. */
export class SqlVerificationRepository implements VerificationRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async insert(v: Verification): Promise<void> {
    await translateUniqueViolation('verification', () => sqlRows(this.#em, `insert into verifications (id, organization_id, recipient, country, prefix, channels, channel_index,
      status, code_hash, code_length, locale, template, expires_at, fallback_after_seconds, send_attempts, check_attempts, sends, last_sent_at, ip_address,
      idempotency_key, approved_at, created_at, updated_at, sandbox_code)
      values ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17::jsonb, $18, $19, $20, $21, $22, $23, $24)`,
    [v.id, v.organizationId, v.recipient, v.country, v.prefix, JSON.stringify(v.channels), v.channelIndex, v.status, v.codeHash, v.codeLength,
      v.locale, v.template, v.expiresAt, v.fallbackAfterSeconds, v.sendAttempts, v.checkAttempts, JSON.stringify(v.sends.map(sendJson)), v.lastSentAt,
      v.ipAddress, v.idempotencyKey, v.approvedAt, v.createdAt, v.updatedAt, v.sandboxCode ?? null], { prepare: true }));
  }

  async insertMany(verifications: readonly Verification[]): Promise<void> {
    if (verifications.length === 0) return;
    const rows = verifications.map((v) => ({
      id: v.id, organization_id: v.organizationId, recipient: v.recipient, country: v.country, prefix: v.prefix, channels: v.channels, channel_index: v.channelIndex,
      status: v.status, code_hash: v.codeHash, code_length: v.codeLength, locale: v.locale, template: v.template, expires_at: v.expiresAt,
      fallback_after_seconds: v.fallbackAfterSeconds, send_attempts: v.sendAttempts, check_attempts: v.checkAttempts, sends: v.sends.map(sendJson),
      last_sent_at: v.lastSentAt, ip_address: v.ipAddress, idempotency_key: v.idempotencyKey, approved_at: v.approvedAt, created_at: v.createdAt, updated_at: v.updatedAt,
      sandbox_code: v.sandboxCode ?? null,
    }));
    await translateUniqueViolation('verification', () => sqlRows(this.#em, `insert into verifications
      select * from json_populate_recordset(null::verifications, $1::json)`, [JSON.stringify(rows)]));
  }

  async supersedeMany(items: ReadonlyArray<{ organizationId: string; recipient: string; exceptId: string }>, now: Date): Promise<number> {
    if (items.length === 0) return 0;
    const rows = await sqlRows(this.#em, `update verifications v set status = 'CANCELED', updated_at = $4
      from unnest($1::text[], $2::text[], $3::text[]) as s (organization_id, recipient, except_id)
      where v.organization_id = s.organization_id and v.recipient = s.recipient and v.status = 'PENDING' and v.id <> s.except_id returning v.id`,
    [items.map((i) => i.organizationId), items.map((i) => i.recipient), items.map((i) => i.exceptId), now]);
    return rows.length;
  }

  async findByIdempotencyKey(organizationId: string, key: string): Promise<Verification | null> {
    return one(await sqlRows<Row>(this.#em, 'select * from verifications where organization_id = $1 and idempotency_key = $2', [organizationId, key], { prepare: true }));
  }

  async remove(organizationId: string, id: string): Promise<void> {
    await sqlRows(this.#em, 'delete from verifications where organization_id = $1 and id = $2', [organizationId, id]);
  }

  async findById(organizationId: string, id: string): Promise<Verification | null> {
    return one(await sqlRows<Row>(this.#em, 'select * from verifications where organization_id = $1 and id = $2', [organizationId, id], { prepare: true }));
  }

  async findLatestPending(organizationId: string, recipient: string): Promise<Verification | null> {
    return one(await sqlRows<Row>(this.#em, `select * from verifications where organization_id = $1 and recipient = $2 and status = 'PENDING'
      order by created_at desc, id desc limit 1`, [organizationId, recipient], { prepare: true }));
  }

  async supersede(organizationId: string, recipient: string, exceptId: string, now: Date): Promise<number> {
    const rows = await sqlRows(this.#em, `update verifications set status = 'CANCELED', updated_at = $4
      where organization_id = $1 and recipient = $2 and status = 'PENDING' and id <> $3 returning id`, [organizationId, recipient, exceptId, now], { prepare: true });
    return rows.length;
  }

  async countCheck(organizationId: string, id: string, maxAttempts: number, now: Date): Promise<Verification | null> {
    return one(await sqlRows<Row>(this.#em, `update verifications set check_attempts = check_attempts + 1, updated_at = $4
      where organization_id = $1 and id = $2 and status = 'PENDING' and check_attempts < $3 and expires_at > $4 returning *`,
    [organizationId, id, maxAttempts, now], { prepare: true }));
  }

  async countChecks(targets: ReadonlyArray<{ organizationId: string; id: string }>, maxAttempts: number, now: Date): Promise<Verification[]> {
    if (targets.length === 0) return [];
    // Primary-key probes (id = any), each row's organization matched by position: a join on unnest let the planner scan the table.
    return (await sqlRows<Row>(this.#em, `update verifications v set check_attempts = v.check_attempts + 1, updated_at = $4
      where v.id = any($2::text[]) and v.organization_id = ($1::text[])[array_position($2::text[], v.id)]
        and v.status = 'PENDING' and v.check_attempts < $3 and v.expires_at > $4 returning v.*`,
    [targets.map((t) => t.organizationId), targets.map((t) => t.id), maxAttempts, now])).map(toVerification);
  }

  async expireDue(now: Date, limit: number): Promise<Verification[]> {
    // skip locked: two workers sweeping at once take different rows.
    return (await sqlRows<Row>(this.#em, `update verifications set status = 'EXPIRED', updated_at = $1
      where id in (select id from verifications where status = 'PENDING' and expires_at <= $1 order by expires_at limit $2 for update skip locked)
      and status = 'PENDING' returning *`, [now, limit])).map(toVerification);
  }

  async approve(organizationId: string, id: string, now: Date): Promise<Verification | null> {
    return one(await sqlRows<Row>(this.#em, `update verifications set status = 'APPROVED', approved_at = $3, updated_at = $3
      where organization_id = $1 and id = $2 and status = 'PENDING' returning *`, [organizationId, id, now], { prepare: true }));
  }

  async setStatus(organizationId: string, id: string, from: readonly VerificationStatus[], to: VerificationStatus, now: Date): Promise<Verification | null> {
    return one(await sqlRows<Row>(this.#em, `update verifications set status = $4, updated_at = $5
      where organization_id = $1 and id = $2 and status = any($3::text[]) returning *`, [organizationId, id, [...from], to, now]));
  }

  async recordSend(organizationId: string, id: string, expectedSendAttempts: number, send: VerificationSend, next: RecordedCode, now: Date): Promise<Verification | null> {
    return one(await sqlRows<Row>(this.#em, `update verifications set send_attempts = send_attempts + 1, sends = sends || $4::jsonb, code_hash = $5,
        channel_index = $6, last_sent_at = $7, updated_at = $8, channels = $9::jsonb, sandbox_code = $10
      where organization_id = $1 and id = $2 and status = 'PENDING' and send_attempts = $3 returning *`,
    [organizationId, id, expectedSendAttempts, JSON.stringify([sendJson(send)]), next.codeHash, next.channelIndex, send.createdAt, now, JSON.stringify(next.channels),
      next.sandboxCode], { prepare: true }));
  }

  async claimFallbackSend(organizationId: string, id: string, expectedSendAttempts: number, lastSentAt: Date, now: Date): Promise<boolean> {
    const rows = await sqlRows(this.#em, `update verifications set last_sent_at = $5, updated_at = $5
      where organization_id = $1 and id = $2 and status = 'PENDING' and send_attempts = $3 and last_sent_at = $4 returning id`,
    [organizationId, id, expectedSendAttempts, lastSentAt, now], { prepare: true });
    return rows.length === 1;
  }

  /** Served by verifications_pending_last_message (migration 0046). */
  async findPendingByLastMessage(organizationId: string, messageId: string): Promise<Verification | null> {
    return one(await sqlRows<Row>(this.#em, `select * from verifications where organization_id = $1 and (sends -> -1 ->> 'messageId') = $2 and status = 'PENDING'`,
      [organizationId, messageId], { prepare: true }));
  }

  async list(organizationId: string, limit: number, status?: VerificationStatus): Promise<Verification[]> {
    const rows = status
      ? await sqlRows<Row>(this.#em, 'select * from verifications where organization_id = $1 and status = $2 order by created_at desc, id desc limit $3', [organizationId, status, limit])
      : await sqlRows<Row>(this.#em, 'select * from verifications where organization_id = $1 order by created_at desc, id desc limit $2', [organizationId, limit]);
    return rows.map(toVerification);
  }

  async prefixStats(organizationId: string, prefix: string, since: Date): Promise<{ starts: number; approvals: number }> {
    const [row] = await sqlRows<{ starts: string; approvals: string }>(this.#em, `select count(*)::text as starts, count(*) filter (where status = 'APPROVED')::text as approvals
      from verifications where organization_id = $1 and prefix = $2 and created_at >= $3`, [organizationId, prefix, since], { prepare: true });
    return { starts: Number(row?.starts ?? 0), approvals: Number(row?.approvals ?? 0) };
  }

  async conversion(organizationId: string, since: Date, limit: number): Promise<VerifyConversionRow[]> {
    const rows = await sqlRows<{ channel: VerifyChannel; country: string | null; hour: Date | string; starts: string; approvals: string }>(this.#em,
      `select channels->>0 as channel, country, date_trunc('hour', created_at) as hour, count(*)::text as starts, count(*) filter (where status = 'APPROVED')::text as approvals
       from verifications where organization_id = $1 and created_at >= $2 group by 1, 2, 3 order by 3, 1, 2 limit $3`, [organizationId, since, limit]);
    return rows.map((r) => ({ channel: r.channel, country: r.country, hour: new Date(r.hour), starts: Number(r.starts), approvals: Number(r.approvals) }));
  }

  async settings(organizationId: string): Promise<VerifySettings | null> {
    const [row] = await sqlRows<{ settings: VerifySettings | string }>(this.#em, 'select settings from verify_settings where organization_id = $1', [organizationId], { prepare: true });
    return row ? json(row.settings) : null;
  }

  async saveSettings(organizationId: string, settings: VerifySettings, now: Date): Promise<void> {
    await sqlRows(this.#em, `insert into verify_settings (organization_id, settings, updated_at) values ($1, $2::jsonb, $3)
      on conflict (organization_id) do update set settings = excluded.settings, updated_at = excluded.updated_at`, [organizationId, JSON.stringify(settings), now]);
  }
}

function sendJson(s: VerificationSend) {
  return { channel: s.channel, messageId: s.messageId, createdAt: s.createdAt.toISOString() };
}

function one(rows: Row[]): Verification | null {
  return rows[0] ? toVerification(rows[0]) : null;
}

function toVerification(r: Row): Verification {
  return {
    id: r.id, organizationId: r.organization_id, recipient: r.recipient, country: r.country, prefix: r.prefix, channels: json(r.channels),
    channelIndex: Number(r.channel_index), status: r.status, codeHash: r.code_hash, codeLength: Number(r.code_length), locale: r.locale, template: r.template,
    expiresAt: new Date(r.expires_at), fallbackAfterSeconds: Number(r.fallback_after_seconds), sendAttempts: Number(r.send_attempts),
    checkAttempts: Number(r.check_attempts), sends: json(r.sends).map((s) => ({ channel: s.channel, messageId: s.messageId, createdAt: new Date(s.createdAt) })),
    lastSentAt: new Date(r.last_sent_at), ipAddress: r.ip_address, idempotencyKey: r.idempotency_key ?? null, approvedAt: r.approved_at ? new Date(r.approved_at) : null,
    createdAt: new Date(r.created_at), updatedAt: new Date(r.updated_at), ...(r.sandbox_code ? { sandboxCode: r.sandbox_code } : {}),
  };
}
