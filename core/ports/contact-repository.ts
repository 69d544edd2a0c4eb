import type { Contact } from '../domain/contact.ts';

/**
 * An organization's contacts. Tenant-scoped: every method takes the organization first and never
 * returns another organization's contact. Within an organization a phone and an email belong to at
 * most one contact (inserting a second one throws AppError CONFLICT).
 */
export interface ContactRepository {
  insert(contact: Contact): Promise<void>;
  findById(organizationId: string, id: string): Promise<Contact | null>;
}
