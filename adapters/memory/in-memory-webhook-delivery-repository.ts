import type { WebhookDelivery } from '../../core/domain/webhook.ts';
import type { WebhookDeliveryRepository } from '../../core/ports/webhook-delivery-repository.ts';
import { copy, type MemoryState } from './memory-state.ts';

export class InMemoryWebhookDeliveryRepository implements WebhookDeliveryRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async insertIfAbsent(delivery: WebhookDelivery): Promise<boolean> {
    const deliveries = [...this.#state.webhookDeliveries.values()];
    if (deliveries.some((d) => d.endpointId === delivery.endpointId && d.eventId === delivery.eventId)) return false;
    this.#state.webhookDeliveries.set(delivery.id, copy(delivery));
    return true;
  }

  async insertOrFindMany(deliveries: readonly WebhookDelivery[]): Promise<WebhookDelivery[]> {
    const stored: WebhookDelivery[] = [];
    const seen = new Set<string>();
    for (const delivery of deliveries) {
      const pair = `${delivery.endpointId}\n${delivery.eventId}`;
      if (seen.has(pair)) continue;
      seen.add(pair);
      const existing = [...this.#state.webhookDeliveries.values()].find((d) => d.endpointId === delivery.endpointId && d.eventId === delivery.eventId);
      if (!existing) this.#state.webhookDeliveries.set(delivery.id, copy(delivery));
      if (!existing || existing.organizationId === delivery.organizationId) stored.push(copy(existing ?? delivery));
    }
    return stored;
  }

  async find(organizationId: string, id: string): Promise<WebhookDelivery | null> {
    const hit = this.#state.webhookDeliveries.get(id);
    return hit && hit.organizationId === organizationId ? copy(hit) : null;
  }

  async findMany(keys: ReadonlyArray<{ organizationId: string; id: string }>): Promise<WebhookDelivery[]> {
    const ids = new Set(keys.filter((k) => this.#state.webhookDeliveries.get(k.id)?.organizationId === k.organizationId).map((k) => k.id));
    return [...ids].map((id) => copy(this.#state.webhookDeliveries.get(id)!));
  }

  async save(delivery: WebhookDelivery): Promise<boolean> {
    const hit = this.#state.webhookDeliveries.get(delivery.id);
    if (!hit || hit.organizationId !== delivery.organizationId) return false;
    this.#state.webhookDeliveries.set(delivery.id, copy({ ...delivery, endpointId: hit.endpointId, eventId: hit.eventId, kind: hit.kind, createdAt: hit.createdAt }));
    return true;
  }

  async saveMany(deliveries: readonly WebhookDelivery[]): Promise<number> {
    let saved = 0;
    for (const delivery of deliveries) if (await this.save(delivery)) saved += 1;
    return saved;
  }

  async listByEndpoint(organizationId: string, endpointId: string, limit: number): Promise<WebhookDelivery[]> {
    return [...this.#state.webhookDeliveries.values()].filter((d) => d.organizationId === organizationId && d.endpointId === endpointId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id)).slice(0, Math.min(limit, 100)).map(copy);
  }
}
