import type { RouteShiftAudience } from '../../core/ports/route-shift-audience.ts';
import type { Database } from './database.ts';
import { sqlRows } from './sql-rows.ts';

/**
 * Organizations a route shift affects, from the partitioned `messages` table. The lower bound is on the
 * UUIDv7 id (its first 48 bits are the creation time), so only the partitions of the window are read.
 */
export class SqlRouteShiftAudience implements RouteShiftAudience {
  readonly #database: Database;
  constructor(database: Database) { this.#database = database; }

  async organizationsReaching(query: { country: string; network: string; providers: readonly string[]; since: Date }, after: string | null, limit: number): Promise<string[]> {
    if (query.providers.length === 0 || limit <= 0) return [];
    const rows = await sqlRows<{ organization_id: string }>(this.#database.em(), `select distinct organization_id from messages
      where id >= $1 and created_at >= $2 and country = $3 and network = $4 and not is_sandbox and provider = any($5::text[]) and organization_id > $6
      order by organization_id limit $7`,
    [uuidV7Bound(query.since), query.since, query.country, query.network, [...query.providers], after ?? '', limit]);
    return rows.map((r) => r.organization_id);
  }
}

/** The smallest UUIDv7 text of the millisecond `at` ('xxxxxxxx-xxxx'): ids made at or after it sort at or after it. */
function uuidV7Bound(at: Date): string {
  const hex = Math.max(0, at.getTime()).toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}`;
}
