import type { AuditEntry, AuditLogRepository } from '../../core/ports/audit-log-repository.ts';
import { copy, type MemoryState } from './memory-state.ts';

export class InMemoryAuditLogRepository implements AuditLogRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async record(entry: AuditEntry): Promise<void> { this.#state.auditLog.push(copy(entry)); }

  async list(options: { limit: number; organizationId?: string; before?: Date; beforeId?: string }): Promise<AuditEntry[]> {
    const { organizationId, before, beforeId } = options;
    const older = (e: AuditEntry) => before === undefined || e.createdAt < before
      || (beforeId !== undefined && e.createdAt.getTime() === before.getTime() && e.id < beforeId);
    return this.#state.auditLog
      .filter((e) => (organizationId === undefined || e.organizationId === organizationId) && older(e))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
      .slice(0, Math.min(options.limit, 200)).map(copy);
  }
}
