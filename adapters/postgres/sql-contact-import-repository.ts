import type { EntityManager } from '@mikro-orm/sql';
import type { ContactImport, ContactImportStatus, ImportRowError } from '../../core/domain/contact-import.ts';
import type { ContactImportRepository } from '../../core/ports/contact-import-repository.ts';
import { sqlRows, toDate } from './sql-rows.ts';

interface Row {
  id: string; organization_id: string; status: string; file_name: string | null; size_bytes: string | number; total_rows: number; rows_done: number;
  created: number; updated: number; skipped: number; error_count: number; errors: ImportRowError[] | string; failure_reason: string | null;
  created_by_user_id: string | null; created_at: Date | string; updated_at: Date | string; finished_at: Date | string | null;
}

function toImport(r: Row): ContactImport {
  return {
    id: r.id, organizationId: r.organization_id, status: r.status as ContactImportStatus, fileName: r.file_name, sizeBytes: Number(r.size_bytes),
    totalRows: r.total_rows, rowsDone: r.rows_done, created: r.created, updated: r.updated, skipped: r.skipped, errorCount: r.error_count,
    errors: typeof r.errors === 'string' ? (JSON.parse(r.errors) as ImportRowError[]) : r.errors, failureReason: r.failure_reason,
    createdByUserId: r.created_by_user_id, createdAt: toDate(r.created_at)!, updatedAt: toDate(r.updated_at)!, finishedAt: toDate(r.finished_at),
  };
}

export class SqlContactImportRepository implements ContactImportRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async insert(j: ContactImport): Promise<void> {
    await sqlRows(this.#em, `insert into contact_imports (id, organization_id, status, file_name, size_bytes, total_rows, rows_done, created, updated,
      skipped, error_count, errors, failure_reason, created_by_user_id, created_at, updated_at, finished_at)
      values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13, $14, $15, $16, $17)`,
    [j.id, j.organizationId, j.status, j.fileName, j.sizeBytes, j.totalRows, j.rowsDone, j.created, j.updated, j.skipped, j.errorCount,
      JSON.stringify(j.errors), j.failureReason, j.createdByUserId, j.createdAt, j.updatedAt, j.finishedAt]);
  }

  async appendChunk(importId: string, seq: number, data: Uint8Array): Promise<void> {
    await sqlRows(this.#em, 'insert into contact_import_chunks (import_id, seq, data) values ($1, $2, $3)', [importId, seq, Buffer.from(data.buffer, data.byteOffset, data.byteLength)]);
  }

  async *chunks(importId: string): AsyncIterable<Uint8Array> {
    for (let seq = 0; ; seq += 1) {
      const rows = await sqlRows<{ data: Uint8Array }>(this.#em, 'select data from contact_import_chunks where import_id = $1 and seq = $2', [importId, seq]);
      if (!rows[0]) return;
      yield rows[0].data;
    }
  }

  async deleteChunks(importId: string): Promise<void> {
    await sqlRows(this.#em, 'delete from contact_import_chunks where import_id = $1', [importId]);
  }

  async findById(organizationId: string, id: string): Promise<ContactImport | null> {
    const rows = await sqlRows<Row>(this.#em, 'select * from contact_imports where organization_id = $1 and id = $2', [organizationId, id]);
    return rows[0] ? toImport(rows[0]) : null;
  }

  async findForProcessing(id: string): Promise<ContactImport | null> {
    const rows = await sqlRows<Row>(this.#em, 'select * from contact_imports where id = $1', [id]);
    return rows[0] ? toImport(rows[0]) : null;
  }

  async update(j: ContactImport): Promise<void> {
    await sqlRows(this.#em, `update contact_imports set status = $2, total_rows = $3, rows_done = $4, created = $5, updated = $6, skipped = $7,
      error_count = $8, errors = $9::jsonb, failure_reason = $10, updated_at = $11, finished_at = $12, size_bytes = $13 where id = $1`,
    [j.id, j.status, j.totalRows, j.rowsDone, j.created, j.updated, j.skipped, j.errorCount, JSON.stringify(j.errors), j.failureReason, j.updatedAt, j.finishedAt, j.sizeBytes]);
  }
}
