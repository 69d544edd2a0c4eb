import { foundation } from './0001-foundation.ts';
import type { Migration } from './migration.ts';

/** Every migration, in the order it runs. Append only. */
export const MIGRATIONS: readonly Migration[] = [foundation];
