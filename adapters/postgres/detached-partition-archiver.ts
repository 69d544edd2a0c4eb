import { Readable, pipeline } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { ArchiveTarget } from '../archive/archive-target.ts';
import type { Database } from './database.ts';

export interface ArchiveOutcome {
  /** Where each archived (then dropped) partition went: a file path or an `s3://` URL. */
  archived: string[];
  /** The write that failed in this run: that partition stays detached and is retried by a later run. */
  failure: { table: string; error: string } | null;
}

const BATCH = 5_000;
const CLAIM = `interval '1 hour'`;
const CLAIM_RENEW_MS = 10 * 60_000;

/** A CSV field as PostgreSQL's COPY ... (FORMAT csv) writes it: NULL unquoted and empty, text quoted when it must be. */
function csvField(value: string | null): string {
  if (value === null) return '';
  return value === '' || /[",\r\n]/.test(value) || /^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Archives the partitions that retention detached (`detached_partitions`): each is claimed (a lease,
 * so two processes never write one table), written to the target as `<table>.csv.gz` (PostgreSQL CSV
 * with a header row), and dropped once the target confirms the object complete. A failed write
 * releases the claim, leaves the table detached and ends the run's archiving; a later run retries.
 */
export class PostgresDetachedPartitionArchiver {
  readonly #database: Database;
  readonly #target: ArchiveTarget;
  constructor(database: Database, target: ArchiveTarget) {
    this.#database = database; this.#target = target;
  }

  async archiveAll(): Promise<ArchiveOutcome> {
    const archived: string[] = [];
    for (;;) {
      const [claimed] = await this.#database.em().execute<{ table_name: string }[]>(
        `update detached_partitions set claimed_until = now() + ${CLAIM}
         where table_name = (select table_name from detached_partitions where not drop_only and (claimed_until is null or claimed_until < now()) order by month, table_name limit 1 for update skip locked)
         returning table_name`);
      if (!claimed) return { archived, failure: null };
      const table = claimed.table_name;
      try {
        const receipt = await this.#target.write(`${table}.csv.gz`, await this.#gzipCsv(table));
        archived.push(receipt.location);
      } catch (error) {
        await this.#database.em().execute('update detached_partitions set claimed_until = null where table_name = ?', [table]);
        return { archived, failure: { table, error: (error as Error).message } };
      }
      await this.#database.em().transactional(async (em) => {
        await em.execute(`drop table if exists ${quoted(table)}`);
        await em.execute('delete from detached_partitions where table_name = ?', [table]);
      });
    }
  }

  /** The table as gzip CSV: a stream that errors (and so fails the write) if reading the table fails. */
  async #gzipCsv(table: string): Promise<Readable> {
    const columns = (await this.#database.em().execute<{ name: string }[]>(
      `select attname as name from pg_attribute where attrelid = ?::regclass and attnum > 0 and not attisdropped order by attnum`, [table])).map((c) => c.name);
    const key = await this.#database.em().execute<{ name: string; type: string }[]>(
      `select a.attname as name, format_type(a.atttypid, a.atttypmod) as type from pg_index i
       join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any (i.indkey::int2[])
       where i.indrelid = ?::regclass and i.indisprimary order by array_position(i.indkey::int2[], a.attnum)`, [table]);
    if (key.length === 0) throw new Error(`${table} has no primary key to read it in order`);
    const source = Readable.from(this.#csvBatches(table, columns, key), { objectMode: false });
    return pipeline(source, createGzip(), () => undefined);
  }

  /**
   * The header, then the rows in primary-key order, 5,000 a query. Each batch is its own short query
   * (keyset paging on the detached table, which nothing writes to): no transaction stays open while
   * the target is slow, and the claim is renewed as the export goes on.
   */
  async *#csvBatches(table: string, columns: string[], key: Array<{ name: string; type: string }>): AsyncGenerator<Buffer> {
    yield Buffer.from(`${columns.join(',')}\n`);
    const select = `select ${columns.map((c) => `${quoted(c)}::text as ${quoted(c)}`).join(', ')} from ${quoted(table)}`;
    const order = key.map((k) => quoted(k.name)).join(', ');
    const after = `(${order}) > (${key.map((k) => `?::${k.type}`).join(', ')})`;
    let last: Array<string | null> | null = null;
    let renewed = Date.now();
    for (;;) {
      const rows: Array<Record<string, string | null>> = await this.#database.em().execute(
        `${select} ${last ? `where ${after}` : ''} order by ${order} limit ${BATCH}`, last ?? []);
      if (rows.length > 0) yield Buffer.from(rows.map((row) => `${columns.map((c) => csvField(row[c] ?? null)).join(',')}\n`).join(''));
      if (rows.length < BATCH) return;
      const end = rows[rows.length - 1]!;
      last = key.map((k) => end[k.name] ?? null);
      if (Date.now() - renewed > CLAIM_RENEW_MS) {
        await this.#database.em().execute(`update detached_partitions set claimed_until = now() + ${CLAIM} where table_name = ?`, [table]);
        renewed = Date.now();
      }
    }
  }
}
