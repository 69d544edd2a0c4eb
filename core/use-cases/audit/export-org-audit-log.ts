import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';
import { parseInput } from '../../validation.ts';
import { withoutBlankValues } from '../delivery-logs/delivery-log-query.ts';
import { ORG_AUDIT_EXPORT_MAX_ROWS, OrgAuditFilterInput, orgAuditEntryView, toOrgAuditQuery } from './org-audit-query.ts';

const BATCH = 500;
const CHUNK_CHARS = 64 * 1024;

export const ExportOrgAuditLogInput = OrgAuditFilterInput;

/**
 * GET /audit-log/export: the matching entries as NDJSON (one entry a line, the same fields as the
 * list), newest first, at most ORG_AUDIT_EXPORT_MAX_ROWS; read lazily in batches while the client
 * reads. `truncated` says more entries matched. Errors: VALIDATION_ERROR (checked before streaming).
 */
export class ExportOrgAuditLog {
  readonly #deps: { storage: Pick<Storage, 'orgAuditLog'>; clock: Clock };
  constructor(deps: { storage: Pick<Storage, 'orgAuditLog'>; clock: Clock }) { this.#deps = deps; }

  async execute(organizationId: string, query: unknown) {
    const input = parseInput(ExportOrgAuditLogInput, withoutBlankValues(query));
    const filter = toOrgAuditQuery(input);
    const matching = await this.#deps.storage.orgAuditLog.countUpTo(organizationId, filter, ORG_AUDIT_EXPORT_MAX_ROWS + 1);
    const stamp = this.#deps.clock.now().toISOString().replace(/\.\d+Z$/, 'Z').replace(/[-:]/g, '').replace('T', '-');
    return { filename: `audit-log-${stamp}.ndjson`, truncated: matching > ORG_AUDIT_EXPORT_MAX_ROWS, chunks: this.#lines(organizationId, filter) };
  }

  async *#lines(organizationId: string, filter: ReturnType<typeof toOrgAuditQuery>): AsyncIterable<string> {
    let pending = '';
    let sent = 0;
    let beforeSeq: number | undefined;
    while (sent < ORG_AUDIT_EXPORT_MAX_ROWS) {
      const page = await this.#deps.storage.orgAuditLog.list(organizationId, { ...filter, ...(beforeSeq ? { beforeSeq } : {}) },
        Math.min(BATCH, ORG_AUDIT_EXPORT_MAX_ROWS - sent));
      for (const entry of page) {
        pending += `${JSON.stringify(orgAuditEntryView(entry))}\n`;
        if (pending.length >= CHUNK_CHARS) { yield pending; pending = ''; }
      }
      sent += page.length;
      if (page.length < BATCH) break;
      beforeSeq = page.at(-1)!.seq;
    }
    yield pending;
  }
}
