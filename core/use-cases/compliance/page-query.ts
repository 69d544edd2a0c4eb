import * as v from 'valibot';

export { withoutBlankValues } from '../delivery-logs/delivery-log-query.ts';

export const PAGE_SIZE = { default: 20, max: 100 } as const;

const wholeNumber = (description: string) => v.pipe(
  v.string('must be a whole number'), v.description(description), v.regex(/^\d{1,9}$/, 'must be a whole number'), v.transform(Number));

/** `page` (default 1) and `limit` (default 20, at most 100) query fields shared by the compliance and admin lists. */
export const pageQueryFields = {
  page: v.optional(v.pipe(wholeNumber('Page number, 1 or more (default 1)'), v.minValue(1, 'must be at least 1'), v.maxValue(100_000, 'must be at most 100000')), '1'),
  limit: v.optional(v.pipe(
    wholeNumber(`Items per page, 1 to ${PAGE_SIZE.max} (default ${PAGE_SIZE.default})`),
    v.minValue(1, 'must be at least 1'), v.maxValue(PAGE_SIZE.max, `must be at most ${PAGE_SIZE.max}`)),
  String(PAGE_SIZE.default)),
};

export interface Page<T> {
  items: T[];
  page: number;
  limit: number;
  total: number;
  totalPages: number;
}

export function toPage<T>(items: T[], page: number, limit: number, total: number): Page<T> {
  return { items, page, limit, total, totalPages: Math.ceil(total / limit) };
}
