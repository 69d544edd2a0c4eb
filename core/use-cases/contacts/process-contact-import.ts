import { normalizeContactFields, type Contact, type ContactFields } from '../../domain/contact.ts';
import { mergeAttributes } from '../../domain/contact.ts';
import { mergeImportRows, type ImportRow, type MergedImportRows } from '../../domain/merge-import-rows.ts';
import { IMPORT_ERRORS_KEPT, type ContactImport, type ImportRowError } from '../../domain/contact-import.ts';
import { QUEUES } from '../../ports/job-queue.ts';
import type { Clock } from '../../ports/clock.ts';
import type { CsvReader, CsvRow } from '../../ports/csv-reader.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Repositories, Storage } from '../../ports/storage.ts';
import { importTargetOf, splitTags, type ImportColumn } from './import-columns.ts';

export const IMPORT_BATCH_ROWS = 5_000;
/** Rows one job run handles before it re-enqueues the rest (keeps each job well inside the queue's expiry). */
export const IMPORT_ROWS_PER_RUN = 500_000;

export interface ProcessContactImportDeps {
  storage: Storage;
  csv: CsvReader;
  ids: IdGenerator;
  clock: Clock;
  batchRows?: number;
  maxRowsPerRun?: number;
}

/**
 * The worker side of a CSV import (docs/contacts.md). Streams the stored file, and per batch of rows,
 * in one transaction: matches rows to existing contacts by phone, then email; updates matches (non-empty
 * cells overwrite, tags are added) and inserts the rest; records the counters and the row position.
 * A bad row is skipped with its line and reason; it never aborts the others. Re-importing a file
 * therefore creates nothing new, and a crashed import resumes after the last committed batch.
 */
export class ProcessContactImport {
  readonly #deps: ProcessContactImportDeps;
  constructor(deps: ProcessContactImportDeps) { this.#deps = deps; }

  async execute(importId: string): Promise<ContactImport | null> {
    const { storage, csv } = this.#deps;
    const first = await storage.contactImports.findForProcessing(importId);
    if (!first || first.status === 'COMPLETED' || first.status === 'FAILED') return first;
    const resumeAfter = first.rowsDone;
    const budget = this.#deps.maxRowsPerRun ?? IMPORT_ROWS_PER_RUN;
    const batchRows = this.#deps.batchRows ?? IMPORT_BATCH_ROWS;
    let seen = 0;
    let batch: ReadRow[] = [];
    // One batch commits while the next one is read and normalized (at most one in flight).
    let inFlight: Promise<ContactImport | null> = Promise.resolve(first);
    const run: RunState = { expectNew: true };
    const columns = new Map<string, ImportTarget>(); // header name -> field or attribute, worked out once per file
    const commitNext = async (rows: ReadRow[], mode: Mode): Promise<ContactImport | null> => {
      const previous = await inFlight;
      if (!previous) return null;
      inFlight = this.#commit(previous, rows, mode, run);
      inFlight.catch(() => undefined); // awaited below; this only keeps a failure from being "unhandled" meanwhile
      return previous;
    };
    // An infrastructure failure is thrown: the queue retries the job, which resumes after the last committed batch.
    for await (const row of csv.rows(storage.contactImports.chunks(importId))) {
      seen += 1;
      if (seen <= resumeAfter) continue;
      // A full batch commits when a further row shows up: the file's last batch always commits as the
      // last one, never as a pause that leaves a next run nothing to do but re-read the whole file.
      if (batch.length >= batchRows) {
        const pause = seen - 1 - resumeAfter >= budget;
        if (!(await commitNext(batch, pause ? 'pause' : 'more'))) break;
        batch = [];
        if (pause) return (await inFlight) ?? storage.contactImports.findForProcessing(importId);
      }
      batch.push(readRow(row, columns));
    }
    if (await commitNext(batch, 'last')) {
      const done = await inFlight;
      if (done) return done;
    }
    return storage.contactImports.findForProcessing(importId);
  }

  /**
   * Commits one batch, or returns null when another run of the same import already moved past `job`
   * (a job redelivered while the first run was still going): that run owns the import.
   * 'pause' ends this run after the batch and enqueues the rest, so one job stays short.
   */
  async #commit(job: ContactImport, rows: readonly ReadRow[], mode: Mode, run: RunState): Promise<ContactImport | null> {
    const rejected: ImportRowError[] = [];
    const readable: ImportRow[] = [];
    for (const row of rows) {
      if ('reason' in row) rejected.push(row); else readable.push(row);
    }
    return this.#deps.storage.transaction(async (tx) => {
      await tx.contacts.lockForBulkWrite(job.organizationId);
      const current = await tx.contactImports.findForProcessing(job.id);
      if (!current || current.rowsDone !== job.rowsDone || current.status === 'COMPLETED' || current.status === 'FAILED') return null;
      const next = { ...current, errors: [...current.errors] };
      const reject = (error: ImportRowError) => {
        next.skipped += 1; next.errorCount += 1;
        if (next.errors.length < IMPORT_ERRORS_KEPT) next.errors.push(error);
      };
      rejected.forEach(reject);
      const outcome = await this.#upsert(tx, job.organizationId, readable, run);
      outcome.rejected.forEach(reject);
      next.created += outcome.created; next.updated += outcome.updated;
      next.rowsDone += rows.length;
      const now = this.#deps.clock.now();
      const done: ContactImport = mode === 'last'
        ? { ...next, status: 'COMPLETED', totalRows: next.rowsDone, updatedAt: now, finishedAt: now }
        : { ...next, status: 'PROCESSING', totalRows: Math.max(next.totalRows, next.rowsDone), updatedAt: now };
      await tx.contactImports.update(done);
      if (mode === 'last') await tx.contactImports.deleteChunks(job.id);
      if (mode === 'pause') await tx.jobs.enqueue(QUEUES.contactImport, { importId: job.id });
      return done;
    });
  }

  /**
   * Most batches of an import are new people. Such a batch is merged among its own rows and inserted
   * without looking anything up: the insert writes nothing when one of its phones or emails is already
   * stored (then the batch is matched against the stored contacts as usual, and so are the next ones
   * until a lookup finds nothing). Either way the outcome is the one matching first would give.
   */
  async #upsert(tx: Repositories, organizationId: string, rows: readonly ImportRow[], run: RunState): Promise<MergedImportRows> {
    const now = this.#deps.clock.now();
    const create = (fields: ContactFields): Contact => ({ id: this.#deps.ids.next(), organizationId, ...fields, attributes: mergeAttributes({}, fields.attributes), optedOutAt: null, createdAt: now, updatedAt: now });
    if (rows.length === 0) return mergeImportRows(rows, [], create, now);
    if (run.expectNew) {
      const alone = mergeImportRows(rows, [], create, now);
      const { phones, emails } = addressesOf(rows, alone.fresh);
      const nothingStored = phones.length + emails.length === 0 || (await tx.contacts.findByAddresses(organizationId, phones, emails)).length === 0;
      if (nothingStored && await tx.contacts.insertManyUnlessTaken(alone.fresh)) return alone;
    }
    const { phones, emails } = addressesOf(rows, []);
    const stored = await tx.contacts.findByAddresses(organizationId, phones, emails);
    run.expectNew = stored.length === 0;
    const merged = mergeImportRows(rows, stored, create, now);
    await tx.contacts.insertMany(merged.fresh);
    await tx.contacts.updateMany(merged.dirty);
    return merged;
  }
}

/** Whether the next batch is tried as new people first (see #upsert); one per job run. */
interface RunState { expectNew: boolean }

/** The phones and emails of `rows` that none of `held` has (all of them when `held` is empty). */
function addressesOf(rows: readonly ImportRow[], held: readonly Contact[]): { phones: string[]; emails: string[] } {
  const heldPhones = new Set(held.map((c) => c.phone)); const heldEmails = new Set(held.map((c) => c.email));
  const phones = new Set<string>(); const emails = new Set<string>();
  for (const { fields } of rows) {
    if (fields.phone && !heldPhones.has(fields.phone)) phones.add(fields.phone);
    if (fields.email && !heldEmails.has(fields.email)) emails.add(fields.email);
  }
  return { phones: [...phones], emails: [...emails] };
}

type Mode = 'more' | 'last' | 'pause';
type ReadRow = ImportRow | ImportRowError;

/** A CSV row as contact fields, or why it is skipped. */
function readRow(row: CsvRow, columns: Map<string, ImportTarget>): ReadRow {
  if ('error' in row) return { line: row.line, reason: row.error };
  const { cells, attributes } = cellsOf(row.record, columns);
  const read = normalizeContactFields({ ...cells, tags: cells.tags === undefined ? [] : splitTags(cells.tags), attributes });
  if (!read.ok) return { line: row.line, reason: read.reason };
  if (read.fields.phone === null && read.fields.email === null) return { line: row.line, reason: 'a row needs a phone or an email' };
  return { line: row.line, fields: read.fields, hasCountry: Boolean(cells.countryCode?.trim()) };
}

type ImportTarget = ReturnType<typeof importTargetOf>;

/** The row's contact-field cells, and its non-empty other cells as attributes (an empty cell changes nothing). */
function cellsOf(record: Record<string, string>, columns: Map<string, ImportTarget>): { cells: Partial<Record<ImportColumn, string>>; attributes: Record<string, string> } {
  const cells: Partial<Record<ImportColumn, string>> = {};
  const attributes: Record<string, string> = {};
  for (const [header, value] of Object.entries(record)) {
    let target = columns.get(header);
    if (target === undefined) columns.set(header, target = importTargetOf(header));
    if (!target || typeof value !== 'string') continue;
    if (typeof target === 'string') { if (cells[target] === undefined) cells[target] = value; } else if (value.trim() !== '') attributes[target.attribute] = value;
  }
  return { cells, attributes };
}
