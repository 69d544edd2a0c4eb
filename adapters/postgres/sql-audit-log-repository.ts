import type { EntityManager } from '@mikro-orm/sql';
import type { AuditEntry, AuditLogRepository } from '../../core/ports/audit-log-repository.ts';
import { sqlRows, toDate } from './sql-rows.ts';

interface Row {
  id: string; actor_user_id: string; impersonator_user_id: string | null; organization_id: string | null; action: string;
  target: string | null; details: Record<string, unknown> | string; created_at: Date | string;
}

export class SqlAuditLogRepository implements AuditLogRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async record(e: AuditEntry): Promise<void> {
    await sqlRows(this.#em, `insert into audit_log (id, actor_user_id, impersonator_user_id, organization_id, action, target, details, created_at)
      values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8)`,
    [e.id, e.actorUserId, e.impersonatorUserId, e.organizationId, e.action, e.target, JSON.stringify(e.details), e.createdAt]);
  }

  async list(options: { limit: number; organizationId?: string; before?: Date; beforeId?: string }): Promise<AuditEntry[]> {
    const rows = await sqlRows<Row>(this.#em, `select * from audit_log
      where ($1::text is null or organization_id = $1)
        and ($2::timestamptz is null or created_at < $2 or ($4::text is not null and created_at = $2 and id < $4))
      order by created_at desc, id desc limit $3`,
    [options.organizationId ?? null, options.before ?? null, Math.min(options.limit, 200), options.beforeId ?? null]);
    return rows.map((r) => ({
      id: r.id, actorUserId: r.actor_user_id, impersonatorUserId: r.impersonator_user_id, organizationId: r.organization_id, action: r.action,
      target: r.target, details: typeof r.details === 'string' ? (JSON.parse(r.details) as Record<string, unknown>) : r.details, createdAt: toDate(r.created_at)!,
    }));
  }
}
