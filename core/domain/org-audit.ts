/**
 * The organization's audit log (docs/audit-log.md): what each member, API key or impersonating
 * platform administrator changed, with before/after of the changed fields and never a secret.
 * Pure; no I/O. The closed list of actions lives here; adding one is a one-line change plus docs.
 */

/** Every action the organization's audit log records (docs/audit-log.md lists what each means). */
export const ORG_AUDIT_ACTIONS = [
  'organization.updated',
  'member.invited', 'member.role_changed', 'member.removed',
  'api_key.created', 'api_key.updated', 'api_key.revoked',
  'template.created', 'template.updated', 'template.checked',
  'provider.health_checked', 'provider.updated',
  'vendor_account.created', 'vendor_account.updated', 'vendor_account.deleted', 'vendor_account.tested',
  'sender_id.requested', 'sender_id.deleted',
  'webhook.created', 'webhook.updated', 'webhook.deleted', 'webhook.tested', 'webhook.secret_rotated', 'webhook.delivery_replayed',
  'message.sent_from_dashboard', 'message.cancelled_from_dashboard',
  'verify.settings_updated',
  'export.created',
  'consent.changed',
  'contact.created', 'contact.updated', 'contact.deleted', 'contact.opted_out', 'contact.import_started',
  'suppression.added', 'suppression.removed',
  'keyword.created', 'keyword.deleted',
  'event.created', 'event.updated', 'event.deactivated',
  'workflow.failures_acknowledged',
  'segment.created',
  'campaign.created', 'campaign.sent', 'campaign.cancelled', 'campaign.paused', 'campaign.resumed',
  'billing.top_up_started', 'billing.payment_verified',
  'inbox.secret_rotated', 'inbox.subscriber_hash_created',
  'conversation.replied',
  'impersonation.started', 'impersonation.ended',
  // Reserved for the two-factor and single sign-on work (issue 34): recorded through RecordOrgAuditEvent.
  'two_factor.enabled', 'two_factor.disabled', 'two_factor.recovery_codes_regenerated', 'passkey.added', 'passkey.removed',
  'sso.configured', 'sso.updated', 'sso.removed', 'sso.domain_verified', 'sso.member_provisioned',
] as const;
export type OrgAuditAction = (typeof ORG_AUDIT_ACTIONS)[number];

/** Who acted: a member's session, an API key, or a platform administrator impersonating the organization. */
export type OrgAuditActor =
  | { type: 'member'; userId: string; email: string | null }
  | { type: 'api_key'; apiKeyId: string; name: string | null }
  | { type: 'platform_staff'; userId: string; email: string | null };

/** One changed field: its value before and after (null when absent, e.g. on create or delete). */
export interface FieldChange { before: unknown; after: unknown }

/** What an entry is made of before the chain gives it a sequence number and a hash. */
export interface OrgAuditRecord {
  organizationId: string;
  occurredAt: Date;
  actor: OrgAuditActor;
  /** The client address the request came from (normalized), null when there was no request. */
  clientAddress: string | null;
  action: OrgAuditAction;
  targetType: string;
  targetId: string | null;
  /** Changed fields only, secrets redacted. */
  changes: Record<string, FieldChange>;
  /** The request id, to match the service's own logs. */
  requestId: string | null;
}

/** A stored entry: the record plus its place in the organization's hash chain. */
export interface OrgAuditEntry extends OrgAuditRecord {
  id: string;
  /** 1, 2, 3 ... per organization, without gaps (a gap is a removed entry). */
  seq: number;
  /** The previous entry's hash (64 zeros for the first entry of the organization). */
  prevHash: string;
  /** sha256 hex of prevHash followed by the canonical JSON of the entry (adapters compute it). */
  hash: string;
}

export const GENESIS_HASH = '0'.repeat(64);
export const REDACTED = '[redacted]';

/**
 * Field names whose values are secrets wherever they appear (credentials, webhook and inbox secrets,
 * passwords, API keys, tokens, passcodes, TOTP seeds, recovery codes): their values never reach the log.
 */
const SECRET_NAME = /secret|password|passwd|passcode|credential|token|private.?key|api.?key|^key$|^keys$|hash|totp|recovery|signature|auth|cookie|pin$|^code$|bearer|session/i;

/** True when a field of this name holds a secret. */
export function isSecretField(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** A copy of `value` with every secret field's value replaced by REDACTED, at every depth (at most 6 levels; deeper is dropped). */
export function redactSecrets(value: unknown, extraSecretFields: readonly string[] = [], depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= 6) return '[too deep]';
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => redactSecrets(v, extraSecretFields, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (v === undefined) continue;
    out[k] = isSecretField(k) || extraSecretFields.includes(k) ? REDACTED : redactSecrets(v, extraSecretFields, depth + 1);
  }
  return out;
}

/** Bookkeeping fields of every view: the target's id is the entry's target, and its timestamps are the entry's time. */
const BOOKKEEPING = new Set(['id', 'organizationId', 'createdAt', 'updatedAt']);

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The changed top-level fields between two views (null = did not exist), secrets redacted. A secret
 * field that changed shows `[redacted]` on both sides: the log says it changed, never what it is.
 */
export function fieldChanges(before: unknown, after: unknown, extraSecretFields: readonly string[] = []): Record<string, FieldChange> {
  const b = before && typeof before === 'object' && !Array.isArray(before) ? before as Record<string, unknown> : {};
  const a = after && typeof after === 'object' && !Array.isArray(after) ? after as Record<string, unknown> : {};
  const changes: Record<string, FieldChange> = {};
  for (const name of new Set([...Object.keys(b), ...Object.keys(a)])) {
    if (BOOKKEEPING.has(name)) continue;
    const was = b[name] ?? null;
    const now = a[name] ?? null;
    if (same(was, now)) continue;
    const secret = isSecretField(name) || extraSecretFields.includes(name);
    changes[name] = secret
      ? { before: was === null ? null : REDACTED, after: now === null ? null : REDACTED }
      : { before: redactSecrets(was, extraSecretFields), after: redactSecrets(now, extraSecretFields) };
  }
  return changes;
}

/**
 * The entry as the hash covers it: every field except `hash` itself, times as ISO text. The hash is
 * sha256(prevHash + canonicalJson(chainPayload(entry))) (docs/adr/0040-organization-audit-log.md).
 */
export function chainPayload(entry: Omit<OrgAuditEntry, 'hash'>): Record<string, unknown> {
  return {
    id: entry.id, organizationId: entry.organizationId, seq: entry.seq, prevHash: entry.prevHash,
    occurredAt: entry.occurredAt.toISOString(), actor: entry.actor, clientAddress: entry.clientAddress,
    action: entry.action, targetType: entry.targetType, targetId: entry.targetId, changes: entry.changes, requestId: entry.requestId,
  };
}
