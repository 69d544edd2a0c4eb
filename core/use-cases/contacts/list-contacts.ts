import * as v from 'valibot';
import { parseInput } from '../../validation.ts';
import { contactView } from '../../domain/contact.ts';
import type { Storage } from '../../ports/storage.ts';

export const CONTACTS_PAGE_MAX = 100;
/** Deepest offset a page may reach; beyond it narrow the search. */
export const CONTACTS_OFFSET_MAX = 100_000;
/** `total` counts at most this many matches (then `totalCapped` is true). */
export const CONTACTS_COUNT_MAX = 100_000;

const positiveInt = (max: number, label: string) => v.pipe(v.string(), v.regex(/^[0-9]+$/, `must be a whole number`), v.transform(Number),
  v.minValue(1, `must be at least 1`), v.maxValue(max, `must be at most ${max}${label}`));

export const ListContactsInput = v.object({
  search: v.optional(v.pipe(v.string(), v.maxLength(100, 'must be at most 100 characters'), v.description('Part of a name, phone or email')), ''),
  page: v.optional(v.pipe(positiveInt(CONTACTS_OFFSET_MAX, ''), v.description('1-based page')), '1'),
  limit: v.optional(v.pipe(positiveInt(CONTACTS_PAGE_MAX, ''), v.description(`Page size, at most ${CONTACTS_PAGE_MAX} (default 20)`)), '20'),
});

/**
 * GET /contacts: newest first, searched by name, phone or email (case-insensitive substring), paginated.
 * `total` is exact up to {@link CONTACTS_COUNT_MAX} matches (`totalCapped` true beyond).
 */
export class ListContacts {
  readonly #deps: { storage: Pick<Storage, 'contacts'> };
  constructor(deps: { storage: Pick<Storage, 'contacts'> }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, query: unknown) {
    const input = parseInput(ListContactsInput, query);
    const offset = Math.min((input.page - 1) * input.limit, CONTACTS_OFFSET_MAX);
    const found = await this.#deps.storage.contacts.search(scope.organizationId, { search: input.search, offset, limit: input.limit, countUpTo: CONTACTS_COUNT_MAX });
    return { items: found.items.map(contactView), page: input.page, limit: input.limit, total: found.total, totalCapped: found.total >= CONTACTS_COUNT_MAX };
  }
}
