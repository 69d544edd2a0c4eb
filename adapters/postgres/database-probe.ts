import { timed } from '../../core/use-cases/system/check-health.ts';
import type { DependencyProbe, ProbeResult } from '../../core/ports/dependency-probe.ts';
import { withTimeout } from '../with-timeout.ts';
import type { Database } from './database.ts';

export class DatabaseProbe implements DependencyProbe {
  readonly #database: Database;
  readonly #timeoutMs: number;
  constructor(database: Database, timeoutMs = 2_000) { this.#database = database; this.#timeoutMs = timeoutMs; }

  check(): Promise<ProbeResult> {
    return timed(true, async () => {
      await withTimeout(this.#database.em().execute('select 1'), this.#timeoutMs, 'database check');
      return this.#database.kind === 'pglite' ? 'embedded PGlite reachable' : 'PostgreSQL reachable';
    });
  }
}
