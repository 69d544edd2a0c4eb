import type { EntityManager } from '@mikro-orm/sql';
import type { Contact } from '../../core/domain/contact.ts';
import type { Audience } from '../../core/domain/segment-rules.ts';
import type { ContactRepository, ContactSearch } from '../../core/ports/contact-repository.ts';
import { isUniqueViolation, translateUniqueViolation } from './db-errors.ts';
import { textArrayLiteral, timestampArrayLiteral } from './sql-array-literal.ts';
import { audienceSql } from './sql-segment-rules.ts';
import { sqlRows, toDate } from './sql-rows.ts';
import { pushTokenSpellings } from '../../core/domain/push-content.ts';

export interface ContactRow {
  id: string; organization_id: string; first_name: string | null; last_name: string | null; phone: string | null; email: string | null;
  country_code: string; tags: string[] | string; fcm_token: string | null; attributes: Record<string, string> | string | null;
  opted_out_at: Date | string | null; created_at: Date | string; updated_at: Date | string; time_zone?: string | null; locale?: string | null;
  push_token_removed_at?: Date | string | null; push_token_removed_reason?: string | null;
}

export function toContact(r: ContactRow): Contact {
  return {
    id: r.id, organizationId: r.organization_id, firstName: r.first_name, lastName: r.last_name, phone: r.phone, email: r.email,
    countryCode: r.country_code, tags: typeof r.tags === 'string' ? (JSON.parse(r.tags) as string[]) : r.tags, fcmToken: r.fcm_token,
    attributes: typeof r.attributes === 'string' ? (JSON.parse(r.attributes) as Record<string, string>) : r.attributes ?? {},
    ...(r.time_zone ? { timeZone: r.time_zone } : {}), ...(r.locale ? { locale: r.locale } : {}), optedOutAt: toDate(r.opted_out_at),
    ...(r.push_token_removed_at ? { pushTokenRemovedAt: toDate(r.push_token_removed_at), pushTokenRemovedReason: r.push_token_removed_reason ?? null } : {}),
    createdAt: toDate(r.created_at)!, updatedAt: toDate(r.updated_at)!,
  };
}

const COLUMNS = 'id, organization_id, first_name, last_name, phone, email, country_code, tags, fcm_token, attributes, locale, opted_out_at, created_at, updated_at';
const SELECT = 'c.id, c.organization_id, c.first_name, c.last_name, c.phone, c.email, c.country_code, c.tags, c.fcm_token, c.attributes, c.locale, c.time_zone, c.opted_out_at, c.push_token_removed_at, c.push_token_removed_reason, c.created_at, c.updated_at';

function toRow(c: Contact) {
  return {
    id: c.id, organization_id: c.organizationId, first_name: c.firstName, last_name: c.lastName, phone: c.phone, email: c.email,
    country_code: c.countryCode, tags: c.tags, fcm_token: c.fcmToken, attributes: c.attributes, locale: c.locale ?? null, opted_out_at: c.optedOutAt, created_at: c.createdAt, updated_at: c.updatedAt,
  };
}

/** `%`, `_` and `\` taken literally in a LIKE pattern. */
function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

export class SqlContactRepository implements ContactRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async insert(c: Contact): Promise<void> {
    // Through the ORM's execute (not sqlRows) so a duplicate phone/email surfaces as a unique violation.
    await translateUniqueViolation('contact', () => this.#em.execute(`insert into contacts
      (id, organization_id, first_name, last_name, phone, email, country_code, tags, fcm_token, attributes, time_zone, locale, opted_out_at, created_at, updated_at)
      values (?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?::jsonb, ?, ?, ?, ?, ?)`,
    [c.id, c.organizationId, c.firstName, c.lastName, c.phone, c.email, c.countryCode, JSON.stringify(c.tags), c.fcmToken, JSON.stringify(c.attributes), c.timeZone ?? null, c.locale ?? null, c.optedOutAt, c.createdAt, c.updatedAt]));
  }

  async findById(organizationId: string, id: string): Promise<Contact | null> {
    const rows = await sqlRows<ContactRow>(this.#em, 'select * from contacts where organization_id = $1 and id = $2', [organizationId, id]);
    return rows[0] ? toContact(rows[0]) : null;
  }

  async update(c: Contact): Promise<boolean> {
    const result = await translateUniqueViolation('contact', () => this.#em.execute(`update contacts set first_name = ?, last_name = ?, phone = ?, email = ?,
      country_code = ?, tags = ?::jsonb, fcm_token = ?, attributes = ?::jsonb, time_zone = ?, locale = ?, opted_out_at = ?, updated_at = ? where organization_id = ? and id = ?`,
    [c.firstName, c.lastName, c.phone, c.email, c.countryCode, JSON.stringify(c.tags), c.fcmToken, JSON.stringify(c.attributes), c.timeZone ?? null, c.locale ?? null, c.optedOutAt, c.updatedAt, c.organizationId, c.id], 'run'));
    return (result as { affectedRows?: number }).affectedRows === 1;
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const rows = await sqlRows(this.#em, 'delete from contacts where organization_id = $1 and id = $2 returning id', [organizationId, id]);
    return rows.length === 1;
  }

  /** One statement on the (organization_id, fcm_token) index of migration 0048. */
  async clearPushToken(organizationId: string, token: string, at: Date, reason: string): Promise<Contact[]> {
    const rows = await sqlRows<ContactRow>(this.#em, `update contacts set fcm_token = null, push_token_removed_at = $3, push_token_removed_reason = $4, updated_at = $3
      where organization_id = $1 and fcm_token = any($2::text[]) returning *`, [organizationId, pushTokenSpellings(token), at, reason]);
    return rows.map(toContact);
  }

  async search(organizationId: string, query: ContactSearch): Promise<{ items: Contact[]; total: number }> {
    const params: unknown[] = [organizationId];
    let where = 'c.organization_id = $1';
    const needle = query.search.trim().toLowerCase();
    if (needle !== '') {
      params.push(`%${likeEscape(needle)}%`);
      where += ` and (lower(c.first_name) like $2 or lower(c.last_name) like $2 or lower(coalesce(c.first_name, '') || ' ' || coalesce(c.last_name, '')) like $2
        or c.email like $2 or c.phone like $2)`;
    }
    const [rows, total] = await Promise.all([
      sqlRows<ContactRow>(this.#em, `select ${SELECT} from contacts c where ${where} order by c.created_at desc, c.id desc offset ${query.offset | 0} limit ${query.limit | 0}`, params),
      sqlRows<{ n: string | number }>(this.#em, `select count(*) as n from (select 1 from contacts c where ${where} limit ${Math.max(0, query.countUpTo | 0)}) counted`, params),
    ]);
    return { items: rows.map(toContact), total: Number(total[0]?.n ?? 0) };
  }

  /**
   * One unique-index probe per address (a lateral `limit 1` lookup), whatever the statistics say: with
   * `phone = any($2)` over thousands of values the planner, lacking fresh statistics (a table filling
   * up during an import), scanned the organization's every contact for each batch.
   */
  async findByAddresses(organizationId: string, phones: readonly string[], emails: readonly string[]): Promise<Contact[]> {
    if (phones.length === 0 && emails.length === 0) return [];
    const rows = await sqlRows<ContactRow>(this.#em, `select ${SELECT} from unnest($2::text[]) a (phone)
        cross join lateral (select * from contacts c where c.organization_id = $1 and c.phone = a.phone limit 1) c
      union all
      select ${SELECT} from unnest($3::text[]) a (email)
        cross join lateral (select * from contacts c where c.organization_id = $1 and c.email = a.email limit 1) c`,
    [organizationId, [...new Set(phones)], [...new Set(emails)]]);
    const byId = new Map(rows.map((r) => [r.id, r] as const)); // a contact found by its phone and by its email comes once
    return [...byId.values()].map(toContact);
  }

  /** One statement for the whole batch: one array parameter per column (cheaper to decode than one JSON document). */
  async insertMany(contacts: readonly Contact[]): Promise<void> {
    if (contacts.length === 0) return;
    const text = (pick: (c: Contact) => string | null) => textArrayLiteral(contacts.map(pick));
    const time = (pick: (c: Contact) => Date | null) => timestampArrayLiteral(contacts.map(pick));
    await sqlRows(this.#em, `insert into contacts (${COLUMNS})
      select id, organization_id, first_name, last_name, phone, email, country_code, tags::jsonb, fcm_token, coalesce(attributes::jsonb, '{}'::jsonb), locale, opted_out_at, created_at, updated_at
      from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::timestamptz[], $12::timestamptz[], $13::timestamptz[], $14::text[])
        as r (id, organization_id, first_name, last_name, phone, email, country_code, tags, fcm_token, attributes, opted_out_at, created_at, updated_at, locale)`,
    [text((c) => c.id), text((c) => c.organizationId), text((c) => c.firstName), text((c) => c.lastName), text((c) => c.phone),
      text((c) => c.email), text((c) => c.countryCode), text((c) => JSON.stringify(c.tags)), text((c) => c.fcmToken),
      // Most imported contacts have no attributes: null (coalesced to {}) costs less to encode than '{}'.
      text((c) => (Object.keys(c.attributes).length === 0 ? null : JSON.stringify(c.attributes))),
      time((c) => c.optedOutAt), time((c) => c.createdAt), time((c) => c.updatedAt), text((c) => c.locale ?? null)]);
  }

  /** A savepoint inside a transaction, so that a refused insert leaves the transaction usable. */
  async insertManyUnlessTaken(contacts: readonly Contact[]): Promise<boolean> {
    if (contacts.length === 0) return true;
    const guarded = this.#em.isInTransaction();
    if (guarded) await sqlRows(this.#em, 'savepoint contacts_insert_many', []);
    try {
      await this.insertMany(contacts);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      if (guarded) await sqlRows(this.#em, 'rollback to savepoint contacts_insert_many', []);
      return false;
    }
    if (guarded) await sqlRows(this.#em, 'release savepoint contacts_insert_many', []);
    return true;
  }

  async updateMany(contacts: readonly Contact[]): Promise<void> {
    if (contacts.length === 0) return;
    await sqlRows(this.#em, `update contacts c set first_name = v.first_name, last_name = v.last_name, phone = v.phone, email = v.email,
      country_code = v.country_code, tags = v.tags, fcm_token = v.fcm_token, attributes = v.attributes, locale = v.locale, updated_at = v.updated_at
      from json_populate_recordset(null::contacts, $1::json) v where c.id = v.id and c.organization_id = v.organization_id`,
    [JSON.stringify(contacts.map(toRow))]);
  }

  /**
   * Also commits the transaction without waiting for the WAL flush (synchronous_commit off, this
   * transaction only): an import batch commits together with its progress row, so a commit lost in a
   * database crash is simply redone when the job resumes. Saves a disk flush per batch.
   */
  async lockForBulkWrite(organizationId: string): Promise<void> {
    await sqlRows(this.#em, `select pg_advisory_xact_lock(hashtext('contacts:' || $1)), set_config('synchronous_commit', 'off', true)`, [organizationId]);
  }

  async count(organizationId: string, audience: Audience): Promise<number> {
    const params: unknown[] = [];
    const from = audienceSql(organizationId, audience, params);
    const rows = await sqlRows<{ n: string | number }>(this.#em, `select count(*) as n ${from}`, params);
    return Number(rows[0]?.n ?? 0);
  }

  async countByLocale(organizationId: string, audience: Audience, limit: number): Promise<Array<{ locale: string | null; count: number }>> {
    const params: unknown[] = [];
    const from = audienceSql(organizationId, audience, params);
    const rows = await sqlRows<{ locale: string | null; n: string | number }>(this.#em,
      `select c.locale, count(*) as n ${from} group by c.locale order by n desc, c.locale nulls first limit ${Math.min(1_000, Math.max(0, limit | 0))}`, params);
    return rows.map((r) => ({ locale: r.locale, count: Number(r.n) }));
  }

  async page(organizationId: string, audience: Audience, afterId: string | null, limit: number): Promise<Contact[]> {
    const params: unknown[] = [];
    let from = audienceSql(organizationId, audience, params);
    if (afterId !== null) { params.push(afterId); from += ` and c.id > $${params.length}`; }
    const rows = await sqlRows<ContactRow>(this.#em, `select ${SELECT} ${from} order by c.id limit ${Math.min(5_000, Math.max(0, limit | 0))}`, params);
    return rows.map(toContact);
  }
}

