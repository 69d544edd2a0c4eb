import type { ContactImport } from '../../core/domain/contact-import.ts';
import type { ContactImportRepository } from '../../core/ports/contact-import-repository.ts';
import { copy, type MemoryState } from './memory-state.ts';

export class InMemoryContactImportRepository implements ContactImportRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async insert(job: ContactImport): Promise<void> { this.#state.contactImports.set(job.id, copy(job)); }

  async appendChunk(importId: string, seq: number, data: Uint8Array): Promise<void> {
    const list = this.#state.importChunks.get(importId) ?? [];
    list[seq] = new Uint8Array(data);
    this.#state.importChunks.set(importId, list);
  }

  async *chunks(importId: string): AsyncIterable<Uint8Array> {
    const list = this.#state.importChunks.get(importId) ?? [];
    for (const chunk of list) if (chunk) yield new Uint8Array(chunk);
  }

  async deleteChunks(importId: string): Promise<void> { this.#state.importChunks.delete(importId); }

  async findById(organizationId: string, id: string): Promise<ContactImport | null> {
    const job = this.#state.contactImports.get(id);
    return job && job.organizationId === organizationId ? copy(job) : null;
  }

  async findForProcessing(id: string): Promise<ContactImport | null> {
    const job = this.#state.contactImports.get(id);
    return job ? copy(job) : null;
  }

  async update(job: ContactImport): Promise<void> {
    if (this.#state.contactImports.has(job.id)) this.#state.contactImports.set(job.id, copy(job));
  }
}
