import { fieldError } from '../../errors.ts';
import { contactImportView, type ContactImport } from '../../domain/contact-import.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import { QUEUES } from '../../ports/job-queue.ts';
import type { Storage } from '../../ports/storage.ts';
import { detectSeparator, SEPARATOR_NAMES, splitHeader } from '../../domain/csv-dialect.ts';
import { IMPORT_COLUMNS, importColumnOf } from './import-columns.ts';

/** Chunks the upload is stored in (the worker streams them back one at a time). */
const CHUNK_BYTES = 1024 * 1024;
const NEWLINE = 10;

export interface UploadedFile {
  name: string | null;
  content: AsyncIterable<Uint8Array>;
}

/**
 * POST /contacts/import: stores the uploaded CSV in the database in 1 MiB chunks (streamed, never
 * whole in memory), checks the header row, and enqueues the import, all in one transaction.
 * Errors: VALIDATION_ERROR for an empty file or a header naming neither phone nor email.
 */
export class StartContactImport {
  readonly #deps: { storage: Storage; ids: IdGenerator; clock: Clock };
  constructor(deps: { storage: Storage; ids: IdGenerator; clock: Clock }) { this.#deps = deps; }

  async execute(scope: { organizationId: string; userId: string | null }, file: UploadedFile) {
    const { storage, ids, clock } = this.#deps;
    const now = clock.now();
    const job: ContactImport = {
      id: ids.next(), organizationId: scope.organizationId, status: 'PENDING', fileName: file.name, sizeBytes: 0, totalRows: 0, rowsDone: 0,
      created: 0, updated: 0, skipped: 0, errorCount: 0, errors: [], failureReason: null, createdByUserId: scope.userId,
      createdAt: now, updatedAt: now, finishedAt: null,
    };
    return storage.transaction(async (tx) => {
      await tx.contactImports.insert(job);
      let seq = 0; let lines = 0; let size = 0; let lastByte = NEWLINE;
      let header: number[] | null = [];
      let pending: Uint8Array[] = []; let pendingBytes = 0;
      const flush = async () => {
        if (pendingBytes === 0) return;
        await tx.contactImports.appendChunk(job.id, seq++, concat(pending, pendingBytes));
        pending = []; pendingBytes = 0;
      };
      for await (const piece of file.content) {
        size += piece.length;
        for (let i = 0; i < piece.length; i += 1) {
          if (piece[i] === NEWLINE) { lines += 1; if (header) { checkHeader(header); header = null; } } else if (header) {
            header.push(piece[i]!);
            if (header.length > 4096) throw fieldError('file', 'the first line (header row) is longer than 4096 bytes');
          }
        }
        if (piece.length > 0) lastByte = piece[piece.length - 1]!;
        pending.push(piece); pendingBytes += piece.length;
        if (pendingBytes >= CHUNK_BYTES) await flush();
      }
      await flush();
      if (size === 0) throw fieldError('file', 'the file is empty');
      if (header) checkHeader(header);
      if (lastByte !== NEWLINE) lines += 1;
      const stored = { ...job, sizeBytes: size, totalRows: Math.max(0, lines - 1) };
      await tx.contactImports.update(stored);
      await tx.jobs.enqueue(QUEUES.contactImport, { importId: job.id });
      return contactImportView(stored);
    });
  }
}

/** The header split the way the worker's reader splits the rows (core/domain/csv-dialect.ts). */
function checkHeader(bytes: number[]): void {
  const line = new TextDecoder().decode(new Uint8Array(bytes));
  const separator = detectSeparator(line);
  const names = splitHeader(line, separator).map((name) => importColumnOf(name));
  if (!names.includes('phone') && !names.includes('email')) {
    throw fieldError('file', `the header row, read as ${SEPARATOR_NAMES[separator]}-separated (comma, semicolon and tab are understood), must name a phone or an email column (columns: ${IMPORT_COLUMNS.join(', ')}, case-insensitive)`);
  }
}

function concat(parts: Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) { out.set(part, at); at += part.length; }
  return out;
}
