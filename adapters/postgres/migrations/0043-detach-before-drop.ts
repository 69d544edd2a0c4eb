import type { Migration } from './migration.ts';

/**
 * Retention without an archive detaches an expired month first (a catalog change of a few ms under
 * the parent's lock), then drops the detached tables, whose file removal (hundreds of ms for a month
 * of a million logs) then holds no lock a send waits on. `drop_only` marks those tables, so a process
 * that dies between the two steps leaves them for the next run to drop, and the archiver (which takes
 * the rows without the mark) never picks them up.
 */
export const detachBeforeDrop: Migration = {
  id: '0043-detach-before-drop',
  statements: ['alter table detached_partitions add column drop_only boolean not null default false'],
};
