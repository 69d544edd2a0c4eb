import type { EntityManager } from '@mikro-orm/sql';
import { sqlRows } from './sql-rows.ts';

/**
 * Runs `work` in a transaction (a savepoint when `em` is in one already) that first takes the
 * transaction-scoped advisory lock of (`what`, `key`): per-organization (or per-subscriber) limits are
 * counted and inserted by one request at a time, in every process. The lock is held until the
 * outermost transaction ends, that is until the row it guards is committed and visible to the next
 * request's count (docs/architecture.md, "Limits").
 */
export function underLimitLock<T>(em: EntityManager, what: string, key: string, work: (em: EntityManager) => Promise<T>): Promise<T> {
  return em.transactional(async (tx) => {
    await sqlRows(tx as EntityManager, 'select pg_advisory_xact_lock(hashtext($1), hashtext($2))', [what, key]);
    return work(tx as EntityManager);
  });
}

/** `select count(*)` of one statement, as a number. */
export async function countOf(em: EntityManager, sql: string, params: readonly unknown[]): Promise<number> {
  const [row] = await sqlRows<{ n: string | number }>(em, sql, params);
  return Number(row?.n ?? 0);
}
