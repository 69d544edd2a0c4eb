import { fieldChanges, type OrgAuditAction, type OrgAuditActor, type OrgAuditEntry } from '../../domain/org-audit.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Repositories } from '../../ports/storage.ts';

/** Who made the request and from where, as the host authenticated it (never taken from the body). */
export interface OrgAuditContext {
  organizationId: string;
  /** The member's user id (or the administrator's, on an impersonation session); null for an API key. */
  userId: string | null;
  /** Set on an impersonation session: the platform administrator behind it. */
  impersonatorId: string | null;
  apiKeyId: string | null;
  /** The normalized client address: the connection's peer (X-Forwarded-For is never trusted). */
  clientAddress: string | null;
  requestId: string | null;
}

/** One event to record. `before`/`after` are views of the target (null: did not exist / no longer exists). */
export interface OrgAuditEvent {
  action: OrgAuditAction;
  targetType: string;
  targetId: string | null;
  before?: unknown;
  after?: unknown;
  /** Field names that are secrets for this target beyond the common ones (docs/audit-log.md, "Secrets"). */
  secretFields?: readonly string[];
}

/**
 * Records one event in the organization's audit log (docs/audit-log.md). The actor is resolved from
 * the context: a platform administrator on an impersonation session, else the API key (id and name),
 * else the member (id and email). Only the fields that differ between `before` and `after` are kept,
 * with every secret redacted (domain/org-audit.ts: by field name, plus `secretFields`).
 *
 * The way for other features to add their own events (two-factor, single sign-on ...): build it with
 * the storage (or a transaction's repositories, so the entry commits with the change) and call
 * `execute(context, { action, targetType, targetId, before, after })` with an action from
 * ORG_AUDIT_ACTIONS.
 */
export class RecordOrgAuditEvent {
  readonly #deps: { storage: Pick<Repositories, 'orgAuditLog' | 'users' | 'apiKeys'>; clock: Clock };
  constructor(deps: { storage: Pick<Repositories, 'orgAuditLog' | 'users' | 'apiKeys'>; clock: Clock }) { this.#deps = deps; }

  async execute(context: OrgAuditContext, event: OrgAuditEvent): Promise<OrgAuditEntry> {
    return this.#deps.storage.orgAuditLog.append({
      organizationId: context.organizationId, occurredAt: this.#deps.clock.now(), actor: await this.#actor(context),
      clientAddress: context.clientAddress, action: event.action, targetType: event.targetType, targetId: event.targetId,
      changes: fieldChanges(event.before ?? null, event.after ?? null, event.secretFields ?? []), requestId: context.requestId,
    });
  }

  async #actor(context: OrgAuditContext): Promise<OrgAuditActor> {
    const { storage } = this.#deps;
    if (context.impersonatorId) {
      return { type: 'platform_staff', userId: context.impersonatorId, email: (await storage.users.findById(context.impersonatorId))?.email ?? null };
    }
    if (context.apiKeyId) {
      return { type: 'api_key', apiKeyId: context.apiKeyId, name: (await storage.apiKeys.findById(context.organizationId, context.apiKeyId))?.name ?? null };
    }
    const userId = context.userId ?? 'unknown';
    return { type: 'member', userId, email: (await storage.users.findById(userId))?.email ?? null };
  }
}
