import type { Logger } from '../logger.ts';

/** Work a worker process runs every few seconds, besides its queues (cron schedules run at most once a minute). */
export interface PeriodicTask {
  name: string;
  everyMs: number;
  /** Also run once this many milliseconds after start, not a whole interval later (partition upkeep); after start-up's own work. */
  firstRunAfterMs?: number;
  run(): Promise<unknown>;
}

/** Runs each task on its interval, never two runs of one task at once; `stop` waits for runs in flight. */
export function startPeriodicTasks(tasks: readonly PeriodicTask[], logger: Logger): { stop(): Promise<void> } {
  const running = new Set<Promise<unknown>>();
  const timers = tasks.map((task) => {
    let busy = false;
    const tick = () => {
      if (busy) return;
      busy = true;
      const run = task.run()
        .catch((error: unknown) => logger.error({ err: error, task: task.name }, 'periodic task failed'))
        .finally(() => { busy = false; running.delete(run); });
      running.add(run);
    };
    const first = task.firstRunAfterMs === undefined ? null : setTimeout(tick, task.firstRunAfterMs);
    first?.unref();
    const timer = setInterval(tick, task.everyMs);
    timer.unref();
    return { timer, first };
  });
  return {
    async stop() {
      timers.forEach(({ timer, first }) => { clearInterval(timer); if (first) clearTimeout(first); });
      await Promise.all(running);
    },
  };
}
