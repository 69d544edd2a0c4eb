import * as v from 'valibot';
import type { Storage } from '../../ports/storage.ts';
import { parseInput } from '../../validation.ts';
import { withoutBlankValues } from '../delivery-logs/delivery-log-query.ts';
import { ORG_AUDIT_PAGE_SIZE, orgAuditEntryView, orgAuditFilterFields, toOrgAuditQuery } from './org-audit-query.ts';

/** A cursor is the last entry's seq, base64url (opaque to clients). */
const encodeCursor = (seq: number) => Buffer.from(`s${seq}`).toString('base64url');
function decodeCursor(cursor: string): number | null {
  const m = /^s(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return m ? Number(m[1]) : null;
}

export const ListOrgAuditLogInput = v.pipe(v.object({
  ...orgAuditFilterFields,
  limit: v.optional(v.pipe(v.string('must be a whole number'), v.regex(/^\d{1,4}$/, 'must be a whole number'), v.transform(Number),
    v.minValue(1, 'must be at least 1'), v.maxValue(ORG_AUDIT_PAGE_SIZE.max, `must be at most ${ORG_AUDIT_PAGE_SIZE.max}`),
    v.description(`Entries per page, 1 to ${ORG_AUDIT_PAGE_SIZE.max} (default ${ORG_AUDIT_PAGE_SIZE.default})`)), String(ORG_AUDIT_PAGE_SIZE.default)),
  cursor: v.optional(v.pipe(v.string('must be a string'), v.maxLength(40, 'is not a cursor from this API'), v.transform(decodeCursor),
    v.check((c) => c !== null, 'is not a cursor from this API'), v.description('The nextCursor of the previous page'))),
}), v.check((q) => !q.from || !q.to || q.from < q.to, 'from must be before to'));

/**
 * GET /audit-log: the organization's audit log, newest first, filtered by actor, action, target and
 * time; at most 200 a page, `nextCursor` (null on the last page) fetches the older ones. Tenant-scoped
 * by the organization id. Errors: VALIDATION_ERROR.
 */
export class ListOrgAuditLog {
  readonly #deps: { storage: Pick<Storage, 'orgAuditLog'> };
  constructor(deps: { storage: Pick<Storage, 'orgAuditLog'> }) { this.#deps = deps; }

  async execute(organizationId: string, query: unknown = {}) {
    const input = parseInput(ListOrgAuditLogInput, withoutBlankValues(query));
    const filter = { ...toOrgAuditQuery(input), ...(input.cursor ? { beforeSeq: input.cursor } : {}) };
    const entries = await this.#deps.storage.orgAuditLog.list(organizationId, filter, input.limit);
    const last = entries.at(-1);
    return { items: entries.map(orgAuditEntryView), limit: input.limit, nextCursor: entries.length === input.limit && last ? encodeCursor(last.seq) : null };
  }
}
