import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Storage } from '../../ports/storage.ts';

export interface ImpersonatedRequest {
  /** The administrator (the session's user). */
  userId: string;
  impersonatorId: string;
  organizationId: string | null;
  method: string;
  /** The route pattern ('/templates/:id'): ids, never bodies or query strings, so no secret reaches the log. */
  route: string;
  path: string;
  status: number;
  requestId: string;
}

/**
 * Writes one audit entry (impersonation.request) for a write request made with an impersonation
 * token: the administrator acting as the tenant, what they called and how it ended.
 */
export class RecordImpersonatedRequest {
  readonly #deps: { storage: Pick<Storage, 'auditLog'>; ids: IdGenerator; clock: Clock };
  constructor(deps: { storage: Pick<Storage, 'auditLog'>; ids: IdGenerator; clock: Clock }) { this.#deps = deps; }

  async execute(request: ImpersonatedRequest): Promise<void> {
    await this.#deps.storage.auditLog.record({
      id: this.#deps.ids.next(), actorUserId: request.userId, impersonatorUserId: request.impersonatorId, organizationId: request.organizationId,
      action: 'impersonation.request', target: `${request.method} ${request.route}`,
      details: { path: request.path, status: request.status, requestId: request.requestId }, createdAt: this.#deps.clock.now(),
    });
  }
}
