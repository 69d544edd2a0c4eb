import * as v from 'valibot';
import { ORG_AUDIT_ACTIONS, type OrgAuditEntry } from '../../domain/org-audit.ts';
import type { OrgAuditQuery } from '../../ports/org-audit-log.ts';

export const ORG_AUDIT_PAGE_SIZE = { default: 50, max: 200 } as const;
/** An export holds at most the newest this many matching entries. */
export const ORG_AUDIT_EXPORT_MAX_ROWS = 10_000;

const text = (description: string, max = 200) => v.optional(v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'),
  v.maxLength(max, `must be at most ${max} characters`), v.description(description)));
const time = (description: string) => v.optional(v.pipe(v.string('must be an ISO 8601 date-time'),
  v.isoTimestamp('must be an ISO 8601 date-time with a time zone, e.g. 2026-11-01T00:00:00Z'), v.transform((s) => new Date(s)), v.description(description)));

/** The filters shared by the list and the export (docs/audit-log.md). */
export const orgAuditFilterFields = {
  actorId: text('Only entries by this member or staff user id, or this API key id', 100),
  action: v.optional(v.pipe(v.picklist(ORG_AUDIT_ACTIONS, 'must be one of the documented actions (docs/audit-log.md)'), v.description('Only this action'))),
  targetType: text('Only entries about this kind of target (template, api_key, webhook ...)', 50),
  targetId: text('Only entries about this target id', 200),
  from: time('Only entries at or after this time'),
  to: time('Only entries before this time'),
};

export const OrgAuditFilterInput = v.pipe(v.object(orgAuditFilterFields),
  v.check((q) => !q.from || !q.to || q.from < q.to, 'from must be before to'));

export function toOrgAuditQuery(input: v.InferOutput<typeof OrgAuditFilterInput>): OrgAuditQuery {
  const q: OrgAuditQuery = {};
  if (input.actorId) q.actorId = input.actorId;
  if (input.action) q.action = input.action;
  if (input.targetType) q.targetType = input.targetType;
  if (input.targetId) q.targetId = input.targetId;
  if (input.from) q.from = input.from;
  if (input.to) q.to = input.to;
  return q;
}

/** How an entry is shown by the API, the export and the dashboard. */
export function orgAuditEntryView(e: OrgAuditEntry) {
  return {
    id: e.id, seq: e.seq, occurredAt: e.occurredAt.toISOString(), actor: e.actor, clientAddress: e.clientAddress, action: e.action,
    target: { type: e.targetType, id: e.targetId }, changes: e.changes, requestId: e.requestId, prevHash: e.prevHash, hash: e.hash,
  };
}
