import { normalizeContactFields, type Contact, type ContactFields } from '../../domain/contact.ts';
import { IMPORT_ERRORS_KEPT, type ContactImport, type ImportRowError } from '../../domain/contact-import.ts';
import { QUEUES } from '../../ports/job-queue.ts';
import type { Clock } from '../../ports/clock.ts';
import type { CsvReader, CsvRow } from '../../ports/csv-reader.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Repositories, Storage } from '../../ports/storage.ts';
import { importColumnOf, splitTags, type ImportColumn } from './import-columns.ts';

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
    const commitNext = async (rows: ReadRow[], mode: Mode): Promise<ContactImport | null> => {
      const previous = await inFlight;
      if (!previous) return null;
      inFlight = this.#commit(previous, rows, mode);
      inFlight.catch(() => undefined); // awaited below; this only keeps a failure from being "unhandled" meanwhile
      return previous;
    };
    // An infrastructure failure is thrown: the queue retries the job, which resumes after the last committed batch.
    for await (const row of csv.rows(storage.contactImports.chunks(importId))) {
      seen += 1;
      if (seen <= resumeAfter) continue;
      batch.push(readRow(row));
      if (batch.length >= batchRows) {
        const pause = seen - resumeAfter >= budget;
        if (!(await commitNext(batch, pause ? 'pause' : 'more'))) break;
        batch = [];
        if (pause) return (await inFlight) ?? storage.contactImports.findForProcessing(importId);
      }
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
  async #commit(job: ContactImport, rows: readonly ReadRow[], mode: Mode): Promise<ContactImport | null> {
    const rejected: ImportRowError[] = [];
    const readable: Array<{ line: number; fields: ContactFields; hasCountry: boolean }> = [];
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
      const outcome = await this.#upsert(tx, job.organizationId, readable, (line, reason) => reject({ line, reason }));
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

  async #upsert(tx: Repositories, organizationId: string, rows: ReadonlyArray<{ line: number; fields: ContactFields; hasCountry: boolean }>,
    reject: (line: number, reason: string) => void): Promise<{ created: number; updated: number }> {
    if (rows.length === 0) return { created: 0, updated: 0 };
    const existing = await tx.contacts.findByAddresses(organizationId,
      rows.flatMap((r) => (r.fields.phone ? [r.fields.phone] : [])), rows.flatMap((r) => (r.fields.email ? [r.fields.email] : [])));
    const byPhone = new Map<string, Contact>(); const byEmail = new Map<string, Contact>();
    const index = (c: Contact) => { if (c.phone) byPhone.set(c.phone, c); if (c.email) byEmail.set(c.email, c); };
    existing.forEach(index);
    const fresh = new Set<Contact>(); const dirty = new Set<Contact>();
    let created = 0; let updated = 0;
    const now = this.#deps.clock.now();
    for (const { line, fields, hasCountry } of rows) {
      const phoneMatch = fields.phone ? byPhone.get(fields.phone) : undefined;
      const emailMatch = fields.email ? byEmail.get(fields.email) : undefined;
      if (phoneMatch && emailMatch && phoneMatch !== emailMatch) { reject(line, 'the phone and the email belong to two different contacts'); continue; }
      const match = phoneMatch ?? emailMatch;
      if (!match) {
        const contact: Contact = { id: this.#deps.ids.next(), organizationId, ...fields, optedOutAt: null, createdAt: now, updatedAt: now };
        fresh.add(contact); index(contact); created += 1;
        continue;
      }
      if (fields.phone && match.phone && match.phone !== fields.phone) { reject(line, 'the email belongs to a contact with another phone'); continue; }
      if (fields.email && match.email && match.email !== fields.email) { reject(line, 'the phone belongs to a contact with another email'); continue; }
      match.firstName = fields.firstName ?? match.firstName; match.lastName = fields.lastName ?? match.lastName;
      match.phone = fields.phone ?? match.phone; match.email = fields.email ?? match.email; match.fcmToken = fields.fcmToken ?? match.fcmToken;
      if (hasCountry) match.countryCode = fields.countryCode;
      match.tags = [...new Set([...match.tags, ...fields.tags])];
      match.updatedAt = now;
      index(match);
      if (!fresh.has(match)) dirty.add(match);
      updated += 1;
    }
    await tx.contacts.insertMany([...fresh]);
    await tx.contacts.updateMany([...dirty]);
    return { created, updated };
  }
}

type Mode = 'more' | 'last' | 'pause';
type ReadRow = { line: number; fields: ContactFields; hasCountry: boolean } | ImportRowError;

/** A CSV row as contact fields, or why it is skipped. */
function readRow(row: CsvRow): ReadRow {
  if ('error' in row) return { line: row.line, reason: row.error };
  const cells = cellsOf(row.record);
  const read = normalizeContactFields({ ...cells, tags: cells.tags === undefined ? [] : splitTags(cells.tags) });
  if (!read.ok) return { line: row.line, reason: read.reason };
  if (read.fields.phone === null && read.fields.email === null) return { line: row.line, reason: 'a row needs a phone or an email' };
  return { line: row.line, fields: read.fields, hasCountry: Boolean(cells.countryCode?.trim()) };
}

function cellsOf(record: Record<string, string>): Partial<Record<ImportColumn, string>> {
  const cells: Partial<Record<ImportColumn, string>> = {};
  for (const [header, value] of Object.entries(record)) {
    const column = importColumnOf(header);
    if (column && typeof value === 'string' && cells[column] === undefined) cells[column] = value;
  }
  return cells;
}
