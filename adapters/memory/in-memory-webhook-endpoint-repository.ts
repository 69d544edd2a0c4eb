import type { OutboundEventKind } from '../../core/domain/outbound-event.ts';
import { subscribesTo, type WebhookEndpoint } from '../../core/domain/webhook.ts';
import type { WebhookEndpointRepository } from '../../core/ports/webhook-endpoint-repository.ts';
import { copy, type MemoryState } from './memory-state.ts';

export class InMemoryWebhookEndpointRepository implements WebhookEndpointRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async insert(endpoint: WebhookEndpoint): Promise<void> { this.#state.webhookEndpoints.set(endpoint.id, copy(endpoint)); }

  async writeWithinLimit(endpoint: WebhookEndpoint, mode: 'insert' | 'save', limit: number): Promise<'WRITTEN' | 'LIMIT' | 'NOT_FOUND'> {
    // Count and write without an await between them: atomic in one process.
    const others = [...this.#state.webhookEndpoints.values()].filter((e) => e.organizationId === endpoint.organizationId && e.isActive && e.id !== endpoint.id).length;
    if (endpoint.isActive && others >= limit) return 'LIMIT';
    if (mode === 'save' && this.#state.webhookEndpoints.get(endpoint.id)?.organizationId !== endpoint.organizationId) return 'NOT_FOUND';
    this.#state.webhookEndpoints.set(endpoint.id, copy(endpoint));
    return 'WRITTEN';
  }

  async find(organizationId: string, id: string): Promise<WebhookEndpoint | null> {
    const hit = this.#state.webhookEndpoints.get(id);
    return hit && hit.organizationId === organizationId ? copy(hit) : null;
  }

  async findMany(keys: ReadonlyArray<{ organizationId: string; id: string }>): Promise<WebhookEndpoint[]> {
    const ids = new Set(keys.filter((k) => this.#state.webhookEndpoints.get(k.id)?.organizationId === k.organizationId).map((k) => k.id));
    return [...ids].map((id) => copy(this.#state.webhookEndpoints.get(id)!));
  }

  async list(organizationId: string, limit: number): Promise<WebhookEndpoint[]> {
    return this.#of(organizationId).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id))
      .slice(0, Math.min(limit, 100)).map(copy);
  }

  async save(endpoint: WebhookEndpoint): Promise<boolean> {
    const hit = this.#state.webhookEndpoints.get(endpoint.id);
    if (!hit || hit.organizationId !== endpoint.organizationId) return false;
    this.#state.webhookEndpoints.set(endpoint.id, copy(endpoint));
    return true;
  }

  async listActive(organizationIds: readonly string[]): Promise<WebhookEndpoint[]> {
    const wanted = new Set(organizationIds);
    return [...this.#state.webhookEndpoints.values()].filter((e) => wanted.has(e.organizationId) && e.isActive)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id)).map(copy);
  }

  async hasSubscribers(organizationId: string, kind: OutboundEventKind): Promise<boolean> {
    return this.#of(organizationId).some((e) => subscribesTo(e, kind));
  }

  #of(organizationId: string): WebhookEndpoint[] {
    return [...this.#state.webhookEndpoints.values()].filter((e) => e.organizationId === organizationId);
  }
}
