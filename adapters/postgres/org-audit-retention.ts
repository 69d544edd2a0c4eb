import type { Database } from './database.ts';

/**
 * Retention of the organizations' audit logs (docs/audit-log.md, "Retention"): entries older than the
 * organization's `retention_overrides.audit_log_days`, else the platform's RETENTION_AUDIT_LOG_DAYS
 * (0: kept forever), are removed through nkra_purge_org_audit_log, the one path the table's
 * append-only trigger lets through. Organizations are purged one at a time (a statement each).
 */
export async function purgeOrgAuditLogs(database: Database, now: Date, platformDays: number): Promise<number> {
  const day = 24 * 3600 * 1000;
  const rows = await database.em().execute<{ organization_id: string; days: number | null }[]>(
    `select h.organization_id, r.audit_log_days as days from org_audit_heads h
      left join retention_overrides r on r.organization_id = h.organization_id
      ${platformDays > 0 ? '' : 'where r.audit_log_days is not null'}`);
  let removed = 0;
  for (const row of rows) {
    const days = row.days ?? platformDays;
    if (!days || days <= 0) continue;
    const [result] = await database.em().execute<{ n: number | string }[]>('select nkra_purge_org_audit_log(?, ?) as n',
      [row.organization_id, new Date(now.getTime() - days * day)]);
    removed += Number(result?.n ?? 0);
  }
  return removed;
}
