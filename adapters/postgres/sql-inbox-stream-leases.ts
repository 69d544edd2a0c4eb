import type { InboxStreamLease, InboxStreamLeases } from '../../core/ports/inbox-stream-leases.ts';
import type { Database } from './database.ts';
import { countOf, underLimitLock } from './organization-lock.ts';
import { sqlRows } from './sql-rows.ts';

/** `inbox_stream_leases` (migration 0049): counted per subscriber under an advisory lock, so every API process sees one count. */
export class SqlInboxStreamLeases implements InboxStreamLeases {
  readonly #database: Database;
  constructor(database: Database) { this.#database = database; }

  async acquire(lease: InboxStreamLease, limit: number, now: Date, expiresAt: Date): Promise<boolean> {
    return underLimitLock(this.#database.em(), 'inbox-streams', `${lease.organizationId}\n${lease.subscriberId}`, async (em) => {
      await sqlRows(em, 'delete from inbox_stream_leases where organization_id = $1 and subscriber_id = $2 and expires_at <= $3', [lease.organizationId, lease.subscriberId, now]);
      const held = await countOf(em, 'select count(*) as n from inbox_stream_leases where organization_id = $1 and subscriber_id = $2', [lease.organizationId, lease.subscriberId]);
      if (held >= limit) return false;
      await sqlRows(em, 'insert into inbox_stream_leases (id, organization_id, subscriber_id, holder, expires_at) values ($1, $2, $3, $4, $5)',
        [lease.id, lease.organizationId, lease.subscriberId, lease.holder, expiresAt]);
      return true;
    });
  }

  async renew(ids: readonly string[], now: Date, expiresAt: Date): Promise<void> {
    const em = this.#database.em();
    if (ids.length > 0) await sqlRows(em, 'update inbox_stream_leases set expires_at = $2 where id = any($1::text[]) and expires_at > $3', [[...ids], expiresAt, now]);
    await sqlRows(em, 'delete from inbox_stream_leases where expires_at <= $1', [now]);
  }

  async release(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await sqlRows(this.#database.em(), 'delete from inbox_stream_leases where id = any($1::text[])', [[...ids]]);
  }
}
