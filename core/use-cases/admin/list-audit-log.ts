import * as v from 'valibot';
import type { AuditEntry } from '../../ports/audit-log-repository.ts';
import type { Storage } from '../../ports/storage.ts';
import { parseInput } from '../../validation.ts';
import { decodeKeysetCursor, encodeKeysetCursor } from '../../domain/keyset-cursor.ts';
import { withoutBlankValues } from '../compliance/page-query.ts';

export const AUDIT_PAGE_SIZE = { default: 50, max: 200 } as const;

export const ListAuditLogInput = v.object({
  limit: v.optional(v.pipe(v.string('must be a whole number'), v.regex(/^\d{1,4}$/, 'must be a whole number'), v.transform(Number),
    v.minValue(1, 'must be at least 1'), v.maxValue(AUDIT_PAGE_SIZE.max, `must be at most ${AUDIT_PAGE_SIZE.max}`),
    v.description(`Entries per page, 1 to ${AUDIT_PAGE_SIZE.max} (default ${AUDIT_PAGE_SIZE.default})`)), String(AUDIT_PAGE_SIZE.default)),
  cursor: v.optional(v.pipe(v.string('must be a string'), v.maxLength(500, 'is not a cursor from this API'),
    v.transform((c: string) => { const k = decodeKeysetCursor(c); return k ? { before: k.at, beforeId: k.id } : null; }), v.check((c) => c !== null, 'is not a cursor from this API'),
    v.description('The nextCursor of the previous page'))),
  organizationId: v.optional(v.pipe(v.string('must be a string'), v.maxLength(64, 'is too long'), v.description('Only entries about this organization'))),
});

export function auditEntryView(e: AuditEntry) {
  return {
    id: e.id, actorUserId: e.actorUserId, impersonatorUserId: e.impersonatorUserId, organizationId: e.organizationId, action: e.action,
    target: e.target, details: e.details, createdAt: e.createdAt.toISOString(),
  };
}

/**
 * GET /admin/audit-log: administrative actions, newest first, a page of at most 200 at a time;
 * `nextCursor` fetches the next (older) page and is null on the last one. Errors: VALIDATION_ERROR.
 */
export class ListAuditLog {
  readonly #deps: { storage: Pick<Storage, 'auditLog'> };
  constructor(deps: { storage: Pick<Storage, 'auditLog'> }) { this.#deps = deps; }

  async execute(query: unknown = {}) {
    const input = parseInput(ListAuditLogInput, withoutBlankValues(query));
    const entries = await this.#deps.storage.auditLog.list({
      limit: input.limit, ...(input.cursor ?? {}), ...(input.organizationId ? { organizationId: input.organizationId } : {}),
    });
    const last = entries.at(-1);
    return { items: entries.map(auditEntryView), limit: input.limit, nextCursor: entries.length === input.limit && last ? encodeKeysetCursor(last.createdAt, last.id) : null };
  }
}
