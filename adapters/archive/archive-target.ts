import type { Readable } from 'node:stream';

/** An object the target holds: its name and its size in bytes. */
export interface ArchivedObject {
  name: string;
  bytes: number;
}

/** Where a completed write landed (a file path, an `s3://bucket/key` URL) and how big it is. */
export interface ArchiveReceipt extends ArchivedObject {
  location: string;
}

/**
 * Where expired partitions go before they are dropped (docs/operations.md, "Archive before drop"):
 * a directory or an S3-compatible bucket. Not tenant data by itself: one archive serves the platform.
 *
 * - `write` consumes `body` to its end and resolves only once the object is complete and checked
 *   (its size read back from the store). A body that errors, or a store that fails or stalls,
 *   rejects it, and then no complete-looking object of that name is left (a previous complete one
 *   may stay). Writing a name again replaces the object whole, so a retried export is harmless.
 * - Errors name the object and the cause and never carry credentials.
 * - Names are plain file names (`messages_p202511.csv.gz`); anything else is refused.
 */
export interface ArchiveTarget {
  write(name: string, body: Readable): Promise<ArchiveReceipt>;
  /** The complete object's bytes as a stream, or null when there is none (restores, tests). */
  read(name: string): Promise<Readable | null>;
  /** The complete objects, by name. */
  list(): Promise<ArchivedObject[]>;
}

const PLAIN_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;

/** Refuses anything but a plain file name: no separators, no `..`, nothing hidden. */
export function assertArchiveName(name: string): void {
  if (!PLAIN_NAME.test(name) || name.includes('..')) throw new Error(`archive object name must be a plain file name, not ${JSON.stringify(name)}`);
}
