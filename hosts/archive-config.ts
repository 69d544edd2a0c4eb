import path from 'node:path';
import * as v from 'valibot';
import type { ArchiveSettings } from '../adapters/archive/open-archive-target.ts';
import { intIn } from './env-values.ts';

/** ARCHIVE_DIR and ARCHIVE_S3_*: where expired partitions are written before they are dropped (docs/operations.md, "Archive before drop"). */
export const ARCHIVE_ENV = {
  ARCHIVE_DIR: v.optional(v.pipe(v.string(), v.minLength(1))),
  ARCHIVE_S3_BUCKET: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name: 3-63 lowercase letters, digits, dots and hyphens'))),
  ARCHIVE_S3_PREFIX: v.optional(v.pipe(v.string(), v.regex(/^[^/\s]\S{0,500}\/$/, 'must be a key prefix that ends in / and does not start with / (no spaces)')), 'nkra-archive/'),
  ARCHIVE_S3_ENDPOINT: v.optional(v.pipe(v.string(), v.regex(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, 'must be an http:// or https:// URL'))),
  ARCHIVE_S3_REGION: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,50}$/, 'must be a region name such as us-east-1 (auto for Cloudflare R2)')), 'us-east-1'),
  ARCHIVE_S3_ACCESS_KEY_ID: v.optional(v.pipe(v.string(), v.regex(/^\S{3,256}$/, 'must be an access key id without spaces'))),
  ARCHIVE_S3_SECRET_ACCESS_KEY: v.optional(v.pipe(v.string(), v.regex(/^\S{8,512}$/, 'must be a secret access key: at least 8 characters, no spaces'))),
  ARCHIVE_S3_FORCE_PATH_STYLE: v.optional(v.picklist(['true', 'false'], 'must be true or false'), 'false'),
  ARCHIVE_S3_TIMEOUT_MS: v.optional(intIn(1_000, 600_000), '60000'),
};

type ArchiveEnv = v.InferOutput<v.ObjectSchema<typeof ARCHIVE_ENV, undefined>>;

/**
 * The archive target, cross-checked: a directory or a bucket, not both; static keys come in pairs;
 * no ARCHIVE_S3_* without a bucket. Problems name the variable, never a value (the secret stays out).
 */
export function archiveConfig(e: ArchiveEnv, present: readonly string[]): { archive: ArchiveSettings | null; problems: string[] } {
  const strayS3 = present.filter((name) => name.startsWith('ARCHIVE_S3_') && name !== 'ARCHIVE_S3_BUCKET');
  const problems = [
    e.ARCHIVE_DIR && e.ARCHIVE_S3_BUCKET && 'ARCHIVE_DIR, ARCHIVE_S3_BUCKET: set one archive target, a directory or an S3 bucket, not both',
    !e.ARCHIVE_S3_BUCKET && strayS3.length > 0 && `${strayS3.sort().join(', ')}: ${strayS3.length > 1 ? 'have' : 'has'} no effect without ARCHIVE_S3_BUCKET`,
    e.ARCHIVE_S3_BUCKET && Boolean(e.ARCHIVE_S3_ACCESS_KEY_ID) !== Boolean(e.ARCHIVE_S3_SECRET_ACCESS_KEY)
      && 'ARCHIVE_S3_ACCESS_KEY_ID, ARCHIVE_S3_SECRET_ACCESS_KEY: set both, or neither to use the default AWS credential chain',
  ].filter((x): x is string => Boolean(x));
  if (problems.length > 0) return { archive: null, problems };
  if (e.ARCHIVE_DIR) return { archive: { kind: 'directory', dir: path.resolve(e.ARCHIVE_DIR) }, problems };
  if (!e.ARCHIVE_S3_BUCKET) return { archive: null, problems };
  return {
    archive: {
      kind: 's3',
      s3: {
        bucket: e.ARCHIVE_S3_BUCKET, prefix: e.ARCHIVE_S3_PREFIX, region: e.ARCHIVE_S3_REGION,
        endpoint: e.ARCHIVE_S3_ENDPOINT?.replace(/\/+$/, '') ?? null, forcePathStyle: e.ARCHIVE_S3_FORCE_PATH_STYLE === 'true',
        credentials: e.ARCHIVE_S3_ACCESS_KEY_ID && e.ARCHIVE_S3_SECRET_ACCESS_KEY
          ? { accessKeyId: e.ARCHIVE_S3_ACCESS_KEY_ID, secretAccessKey: e.ARCHIVE_S3_SECRET_ACCESS_KEY } : null,
        timeoutMs: e.ARCHIVE_S3_TIMEOUT_MS,
      },
    },
    problems,
  };
}
