import type { Contact } from '../../core/domain/contact.ts';
import { AppError } from '../../core/errors.ts';
import type { ContactRepository } from '../../core/ports/contact-repository.ts';
import { copy, type MemoryState } from './memory-state.ts';

export class InMemoryContactRepository implements ContactRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async insert(contact: Contact): Promise<void> {
    for (const other of this.#state.contacts.values()) {
      if (other.organizationId !== contact.organizationId) continue;
      if ((contact.phone !== null && other.phone === contact.phone) || (contact.email !== null && other.email === contact.email)) {
        throw new AppError('CONFLICT', 'contact already exists');
      }
    }
    this.#state.contacts.set(contact.id, copy(contact));
  }

  async findById(organizationId: string, id: string): Promise<Contact | null> {
    const hit = this.#state.contacts.get(id);
    return hit && hit.organizationId === organizationId ? copy(hit) : null;
  }
}
