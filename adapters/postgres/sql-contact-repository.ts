import type { EntityManager } from '@mikro-orm/sql';
import type { Contact } from '../../core/domain/contact.ts';
import type { ContactRepository } from '../../core/ports/contact-repository.ts';
import { translateUniqueViolation } from './db-errors.ts';
import { sqlRows, toDate } from './sql-rows.ts';

export interface ContactRow {
  id: string; organization_id: string; first_name: string | null; last_name: string | null; phone: string | null; email: string | null;
  country_code: string; tags: string[] | string; fcm_token: string | null; opted_out_at: Date | string | null; created_at: Date | string; updated_at: Date | string;
}

export function toContact(r: ContactRow): Contact {
  return {
    id: r.id, organizationId: r.organization_id, firstName: r.first_name, lastName: r.last_name, phone: r.phone, email: r.email,
    countryCode: r.country_code, tags: typeof r.tags === 'string' ? (JSON.parse(r.tags) as string[]) : r.tags, fcmToken: r.fcm_token,
    optedOutAt: toDate(r.opted_out_at), createdAt: toDate(r.created_at)!, updatedAt: toDate(r.updated_at)!,
  };
}

export class SqlContactRepository implements ContactRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async insert(c: Contact): Promise<void> {
    // Through the ORM's execute (not sqlRows) so a duplicate phone/email surfaces as a unique violation.
    await translateUniqueViolation('contact', () => this.#em.execute(`insert into contacts
      (id, organization_id, first_name, last_name, phone, email, country_code, tags, fcm_token, opted_out_at, created_at, updated_at)
      values (?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?)`,
    [c.id, c.organizationId, c.firstName, c.lastName, c.phone, c.email, c.countryCode, JSON.stringify(c.tags), c.fcmToken, c.optedOutAt, c.createdAt, c.updatedAt]));
  }

  async findById(organizationId: string, id: string): Promise<Contact | null> {
    const rows = await sqlRows<ContactRow>(this.#em, 'select * from contacts where organization_id = $1 and id = $2', [organizationId, id]);
    return rows[0] ? toContact(rows[0]) : null;
  }
}
