import { ATTRIBUTE_NAME } from '../../domain/contact.ts';
/** The columns a contact CSV may have (header row, case-insensitive; spaces, _ and - ignored). */
export const IMPORT_COLUMNS = ['firstName', 'lastName', 'phone', 'email', 'countryCode', 'tags', 'fcmToken', 'locale'] as const;
export type ImportColumn = (typeof IMPORT_COLUMNS)[number];

const ALIASES: Record<string, ImportColumn> = {
  firstname: 'firstName', first: 'firstName', givenname: 'firstName',
  lastname: 'lastName', last: 'lastName', surname: 'lastName', familyname: 'lastName',
  phone: 'phone', phonenumber: 'phone', mobile: 'phone', msisdn: 'phone',
  email: 'email', emailaddress: 'email',
  countrycode: 'countryCode', country: 'countryCode',
  tags: 'tags', fcmtoken: 'fcmToken',
  locale: 'locale', language: 'locale', lang: 'locale',
};

/** The column a header name stands for, or null when it is none of the contact fields. */
export function importColumnOf(header: string): ImportColumn | null {
  return ALIASES[header.trim().toLowerCase().replace(/[\s_-]/g, '')] ?? null;
}

/**
 * Where a header's cells go: a contact field, an attribute (any other header that makes a valid
 * attribute name once its spaces and dashes become `_`: "Loyalty tier" -> loyalty_tier), or nowhere.
 */
export function importTargetOf(header: string): ImportColumn | { attribute: string } | null {
  const column = importColumnOf(header);
  if (column) return column;
  const name = header.trim().replace(/[\s-]+/g, '_');
  return ATTRIBUTE_NAME.test(name) ? { attribute: name } : null;
}

/** Tags in one CSV cell are separated by ';' or '|' (a comma would need quoting). */
export function splitTags(cell: string): string[] {
  return cell.split(/[;|]/);
}
