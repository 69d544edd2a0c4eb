import type { ArchiveTarget } from './archive-target.ts';
import { DirectoryArchiveTarget } from './directory-archive-target.ts';
import { S3ArchiveTarget, type S3ArchiveSettings } from './s3-archive-target.ts';

/** Where expired partitions are archived before they are dropped: ARCHIVE_DIR or ARCHIVE_S3_* (docs/operations.md). */
export type ArchiveSettings =
  | { kind: 'directory'; dir: string }
  | { kind: 's3'; s3: S3ArchiveSettings };

/** The target the settings describe; null: expired partitions are dropped without an archive. */
export function openArchiveTarget(settings: ArchiveSettings | null): ArchiveTarget | null {
  if (!settings) return null;
  return settings.kind === 'directory' ? new DirectoryArchiveTarget(settings.dir) : new S3ArchiveTarget(settings.s3);
}
