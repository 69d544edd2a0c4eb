import type { EventTrigger, TriggerPatch, TriggerStep } from '../../core/domain/notification-event.ts';
import type { EventTriggerRepository } from '../../core/ports/event-trigger-repository.ts';
import { copy, type MemoryState } from './memory-state.ts';

export class InMemoryEventTriggerRepository implements EventTriggerRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async insert(trigger: EventTrigger): Promise<void> {
    this.#state.eventTriggers.set(trigger.id, copy(trigger));
  }

  async findById(organizationId: string, id: string): Promise<EventTrigger | null> {
    const hit = this.#state.eventTriggers.get(id);
    return hit && hit.organizationId === organizationId ? copy(hit) : null;
  }

  async findForAdvance(id: string): Promise<EventTrigger | null> {
    const hit = this.#state.eventTriggers.get(id);
    return hit ? copy(hit) : null;
  }

  async listByEvent(organizationId: string, eventId: string, limit: number): Promise<EventTrigger[]> {
    return [...this.#state.eventTriggers.values()]
      .filter((t) => t.organizationId === organizationId && t.eventId === eventId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
      .slice(0, Math.min(limit, 100)).map(copy);
  }

  async advance(id: string, version: number, patch: TriggerPatch): Promise<EventTrigger | null> {
    const current = this.#state.eventTriggers.get(id);
    if (!current || current.version !== version) return null;
    const updated = { ...current, ...copy(patch), version: version + 1 };
    this.#state.eventTriggers.set(id, updated);
    return copy(updated);
  }

  async insertStep(step: TriggerStep): Promise<void> {
    this.#state.triggerSteps.push(copy(step));
  }

  async listSteps(organizationId: string, triggerId: string): Promise<TriggerStep[]> {
    return this.#state.triggerSteps.filter((s) => s.triggerId === triggerId && s.organizationId === organizationId)
      .sort((a, b) => a.sequence - b.sequence).slice(0, 100).map(copy);
  }

  async findStepByMessage(messageId: string): Promise<TriggerStep | null> {
    const hit = this.#state.triggerSteps.find((s) => s.messageId === messageId);
    return hit ? copy(hit) : null;
  }
}
