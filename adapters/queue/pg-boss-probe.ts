import type { PgBoss } from 'pg-boss';
import { timed } from '../../core/use-cases/system/check-health.ts';
import type { DependencyProbe, ProbeResult } from '../../core/ports/dependency-probe.ts';
import { QUEUES } from '../../core/ports/job-queue.ts';
import { withTimeout } from '../with-timeout.ts';

export class PgBossProbe implements DependencyProbe {
  readonly #boss: PgBoss;
  readonly #timeoutMs: number;
  constructor(boss: PgBoss, timeoutMs = 2_000) { this.#boss = boss; this.#timeoutMs = timeoutMs; }

  check(): Promise<ProbeResult> {
    return timed(true, async () => {
      const queue = await withTimeout(this.#boss.getQueue(QUEUES.notificationSend), this.#timeoutMs, 'queue check');
      if (!queue) throw new Error(`queue ${QUEUES.notificationSend} is missing`);
      return 'pg-boss queue reachable';
    });
  }
}
