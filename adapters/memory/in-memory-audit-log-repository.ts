import type { AuditEntry, AuditLogRepository } from '../../core/ports/audit-log-repository.ts';
import { copy, type MemoryState } from './memory-state.ts';

export class InMemoryAuditLogRepository implements AuditLogRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async record(entry: AuditEntry): Promise<void> { this.#state.auditLog.push(copy(entry)); }

  async list(options: { limit: number; organizationId?: string; before?: Date }): Promise<AuditEntry[]> {
    const { organizationId, before } = options;
    return this.#state.auditLog
      .filter((e) => (organizationId === undefined || e.organizationId === organizationId) && (before === undefined || e.createdAt < before))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id))
      .slice(0, Math.min(options.limit, 200)).map(copy);
  }
}
