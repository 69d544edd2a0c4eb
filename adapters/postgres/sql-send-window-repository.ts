import type { EntityManager } from '@mikro-orm/sql';
import type { TemplateCategory } from '../../core/domain/channel.ts';
import type { SendWindow } from '../../core/domain/send-window.ts';
import type { SendWindowRepository } from '../../core/ports/send-window-repository.ts';
import { sqlRows } from './sql-rows.ts';

interface Row { country: string; category: string; days: number[] | string; opens_at: string; closes_at: string }

/** `send_windows` (migration 0021), seeded with GH marketing: Monday to Saturday, 08:00-19:00. */
export class SqlSendWindowRepository implements SendWindowRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async list(): Promise<SendWindow[]> {
    const rows = await sqlRows<Row>(this.#em, 'select country, category, days, opens_at, closes_at from send_windows order by country, category limit 1000', []);
    return rows.map((r) => ({
      country: r.country, category: r.category as TemplateCategory, opensAt: r.opens_at, closesAt: r.closes_at,
      days: typeof r.days === 'string' ? r.days.replace(/[{}]/g, '').split(',').filter(Boolean).map(Number) : r.days.map(Number),
    }));
  }

  async replaceAll(windows: readonly SendWindow[], now: Date): Promise<void> {
    await sqlRows(this.#em, 'delete from send_windows', []);
    if (windows.length === 0) return;
    await sqlRows(this.#em, `insert into send_windows (country, category, days, opens_at, closes_at, updated_at)
      select w.country, w.category, array(select jsonb_array_elements_text(w.days)::smallint), w.opens_at, w.closes_at, $2
      from jsonb_to_recordset($1::jsonb) as w (country text, category text, days jsonb, opens_at text, closes_at text)`,
    [JSON.stringify(windows.map((w) => ({ country: w.country, category: w.category, days: w.days, opens_at: w.opensAt, closes_at: w.closesAt }))), now]);
  }
}
