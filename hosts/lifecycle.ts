import type { Logger } from './logger.ts';

/**
 * Runs `stop` once on SIGTERM or SIGINT (a second signal forces exit), then exits. `stop` should stop
 * accepting work, finish what is in flight and close the database.
 */
export function onShutdownSignal(logger: Logger, stop: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) { logger.warn({ signal }, 'second signal: exiting now'); process.exit(1); }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    stop().then(
      () => { logger.info('shutdown complete'); process.exit(0); },
      (error: unknown) => { logger.error({ err: error }, 'shutdown failed'); process.exit(1); },
    );
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
}

/** Prints a configuration or startup failure clearly and exits non-zero. */
export function failStartup(error: unknown): never {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`nkra: cannot start\n${message}\n`);
  process.exit(1);
}
