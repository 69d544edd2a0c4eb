import type { Database } from '../../adapters/postgres/database.ts';

/**
 * Samples pg_stat_activity of the bench database every `intervalMs` while a phase runs (bench:send
 * --sample-activity): what the backends serving the service are doing, by state, wait event and the
 * start of their query. Where a send's time goes in PostgreSQL: lock waits (`Lock:transactionid`,
 * `Lock:tuple`), commits (`IO:WALSync`), or idle in transaction (waiting for the Node process).
 */
export class PgActivitySampler {
  readonly #db: Database;
  readonly #counts = new Map<string, number>();
  #samples = 0;
  #running = false;
  #loop: Promise<void> | null = null;
  constructor(db: Database) { this.#db = db; }

  start(intervalMs = 50): void {
    this.#running = true;
    this.#loop = (async () => {
      while (this.#running) {
        const rows = await this.#db.em().execute<{ state: string | null; wait: string | null; query: string | null }[]>(
          `select state, wait_event_type || ':' || wait_event as wait, regexp_replace(left(query, 70), '\\s+', ' ', 'g') as query
             from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`);
        this.#samples += 1;
        for (const r of rows) {
          if (r.state === 'idle') continue;
          const key = `${r.state} | ${r.wait ?? 'on CPU'} | ${r.state === 'active' ? r.query : ''}`;
          this.#counts.set(key, (this.#counts.get(key) ?? 0) + 1);
        }
        await new Promise((resolve) => setTimeout(resolve, intervalMs));
      }
    })();
  }

  /** Stops and returns the top lines: average backends per sample in each (state, wait, query). */
  async stop(top = 12): Promise<string[]> {
    this.#running = false;
    await this.#loop;
    return [...this.#counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)
      .map(([key, n]) => `${(n / Math.max(1, this.#samples)).toFixed(2)} backends | ${key}`);
  }
}
