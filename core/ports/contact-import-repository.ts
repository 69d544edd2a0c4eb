import type { ContactImport } from '../domain/contact-import.ts';

/**
 * CSV import jobs and their uploaded file, kept in the database in chunks so any worker process can
 * stream it. Tenant-scoped reads; `findForProcessing` is by id because worker jobs carry ids.
 */
export interface ContactImportRepository {
  insert(job: ContactImport): Promise<void>;
  /** Appends the next chunk (seq 0, 1, 2 ...) of the file. */
  appendChunk(importId: string, seq: number, data: Uint8Array): Promise<void>;
  /** The file's chunks in order, fetched one at a time. */
  chunks(importId: string): AsyncIterable<Uint8Array>;
  deleteChunks(importId: string): Promise<void>;
  findById(organizationId: string, id: string): Promise<ContactImport | null>;
  findForProcessing(id: string): Promise<ContactImport | null>;
  update(job: ContactImport): Promise<void>;
}
