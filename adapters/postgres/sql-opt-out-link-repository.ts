import type { EntityManager } from '@mikro-orm/sql';
import type { Channel } from '../../core/domain/channel.ts';
import type { OptOutLink, OptOutLinkRepository } from '../../core/ports/opt-out-links.ts';
import { sqlRows, toDate } from './sql-rows.ts';

interface Row { token: string; organization_id: string; channel: string; recipient: string; created_at: Date | string }

/** `opt_out_links` (migration 0021): one row per organization, channel and recipient, keyed by its token. */
export class SqlOptOutLinkRepository implements OptOutLinkRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  /** One statement for the batch; a link already recorded stays (its token is the same). */
  async insertMany(links: readonly OptOutLink[]): Promise<void> {
    if (links.length === 0) return;
    const unique = [...new Map(links.map((l) => [l.token, l])).values()];
    await sqlRows(this.#em, `insert into opt_out_links (token, organization_id, channel, recipient, created_at)
      select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[]) on conflict (token) do nothing`,
    [unique.map((l) => l.token), unique.map((l) => l.organizationId), unique.map((l) => l.channel), unique.map((l) => l.recipient), unique.map((l) => l.createdAt)],
    { prepare: true });
  }

  async findByToken(token: string): Promise<OptOutLink | null> {
    const [row] = await sqlRows<Row>(this.#em, 'select * from opt_out_links where token = $1', [token]);
    return row ? { token: row.token, organizationId: row.organization_id, channel: row.channel as Channel, recipient: row.recipient, createdAt: toDate(row.created_at)! } : null;
  }
}
