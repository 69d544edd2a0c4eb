import type { Contact } from '../../core/domain/contact.ts';
import { matchesRule, type Audience } from '../../core/domain/segment-rules.ts';
import { AppError } from '../../core/errors.ts';
import type { ContactRepository, ContactSearch } from '../../core/ports/contact-repository.ts';
import { copy, type MemoryState } from './memory-state.ts';
import { pushTokenSpellings } from '../../core/domain/push-content.ts';

export class InMemoryContactRepository implements ContactRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  #clash(contact: Contact): boolean {
    for (const other of this.#state.contacts.values()) {
      if (other.organizationId !== contact.organizationId || other.id === contact.id) continue;
      if ((contact.phone !== null && other.phone === contact.phone) || (contact.email !== null && other.email === contact.email)) return true;
    }
    return false;
  }

  async insert(contact: Contact): Promise<void> {
    if (this.#state.contacts.has(contact.id) || this.#clash(contact)) throw new AppError('CONFLICT', 'contact already exists');
    this.#state.contacts.set(contact.id, copy(contact));
  }

  async findById(organizationId: string, id: string): Promise<Contact | null> {
    const hit = this.#state.contacts.get(id);
    return hit && hit.organizationId === organizationId ? copy(hit) : null;
  }

  async update(contact: Contact): Promise<boolean> {
    const hit = this.#state.contacts.get(contact.id);
    if (!hit || hit.organizationId !== contact.organizationId) return false;
    if (this.#clash(contact)) throw new AppError('CONFLICT', 'contact already exists');
    this.#state.contacts.set(contact.id, copy(contact));
    return true;
  }

  async clearPushToken(organizationId: string, token: string, at: Date, reason: string): Promise<Contact[]> {
    const spellings = pushTokenSpellings(token);
    const changed: Contact[] = [];
    for (const contact of this.#state.contacts.values()) {
      if (contact.organizationId !== organizationId || contact.fcmToken === null || !spellings.includes(contact.fcmToken)) continue;
      Object.assign(contact, { fcmToken: null, pushTokenRemovedAt: at, pushTokenRemovedReason: reason, updatedAt: at });
      changed.push(copy(contact));
    }
    return changed;
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const hit = this.#state.contacts.get(id);
    if (!hit || hit.organizationId !== organizationId) return false;
    this.#state.contacts.delete(id);
    for (const [key, member] of this.#state.segmentMembers) if (member.contactId === id) this.#state.segmentMembers.delete(key);
    return true;
  }

  async search(organizationId: string, query: ContactSearch): Promise<{ items: Contact[]; total: number }> {
    const needle = query.search.trim().toLowerCase();
    const all = this.#of(organizationId).filter((c) => needle === '' || [c.firstName, c.lastName, `${c.firstName ?? ''} ${c.lastName ?? ''}`, c.email, c.phone]
      .some((value) => value !== null && value.toLowerCase().includes(needle)))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
    return { items: all.slice(query.offset, query.offset + query.limit).map(copy), total: Math.min(all.length, query.countUpTo) };
  }

  async findByAddresses(organizationId: string, phones: readonly string[], emails: readonly string[]): Promise<Contact[]> {
    const p = new Set(phones); const e = new Set(emails);
    return this.#of(organizationId).filter((c) => (c.phone !== null && p.has(c.phone)) || (c.email !== null && e.has(c.email))).map(copy);
  }

  async insertMany(contacts: readonly Contact[]): Promise<void> { for (const c of contacts) await this.insert(c); }

  async insertManyUnlessTaken(contacts: readonly Contact[]): Promise<boolean> {
    const phones = new Set<string>(); const emails = new Set<string>();
    for (const c of contacts) {
      if (this.#clash(c) || (c.phone !== null && phones.has(c.phone)) || (c.email !== null && emails.has(c.email))) return false;
      if (c.phone !== null) phones.add(c.phone);
      if (c.email !== null) emails.add(c.email);
    }
    await this.insertMany(contacts);
    return true;
  }

  async updateMany(contacts: readonly Contact[]): Promise<void> {
    for (const c of contacts) if (!(await this.update(c))) throw new AppError('NOT_FOUND', 'contact not found');
  }

  async lockForBulkWrite(): Promise<void> { /* in-memory transactions already run one at a time */ }

  async count(organizationId: string, audience: Audience): Promise<number> {
    return this.#audience(organizationId, audience).length;
  }

  async countByLocale(organizationId: string, audience: Audience, limit: number): Promise<Array<{ locale: string | null; count: number }>> {
    const counts = new Map<string | null, number>();
    for (const c of this.#audience(organizationId, audience)) counts.set(c.locale ?? null, (counts.get(c.locale ?? null) ?? 0) + 1);
    return [...counts].map(([locale, count]) => ({ locale, count }))
      .sort((a, b) => b.count - a.count || ((a.locale ?? '') < (b.locale ?? '') ? -1 : 1)).slice(0, Math.min(1_000, limit));
  }

  async page(organizationId: string, audience: Audience, afterId: string | null, limit: number): Promise<Contact[]> {
    return this.#audience(organizationId, audience).filter((c) => afterId === null || c.id > afterId)
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).slice(0, limit).map(copy);
  }

  #of(organizationId: string): Contact[] {
    return [...this.#state.contacts.values()].filter((c) => c.organizationId === organizationId);
  }

  #audience(organizationId: string, audience: Audience): Contact[] {
    const members = audience.memberOf === null ? null
      : new Set([...this.#state.segmentMembers.values()].filter((m) => m.segmentId === audience.memberOf).map((m) => m.contactId));
    return this.#of(organizationId).filter((c) => (members === null || members.has(c.id)) && matchesRule(c, audience.rule));
  }
}
