import type { SendWindow } from '../../core/domain/send-window.ts';
import type { SendWindowRepository } from '../../core/ports/send-window-repository.ts';
import { copy, type MemoryState } from './memory-state.ts';

export class InMemorySendWindowRepository implements SendWindowRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async list(): Promise<SendWindow[]> {
    return [...this.#state.sendWindows].sort((a, b) => a.country.localeCompare(b.country) || a.category.localeCompare(b.category)).slice(0, 1_000).map(copy);
  }

  async replaceAll(windows: readonly SendWindow[], _now?: Date): Promise<void> {
    this.#state.sendWindows = windows.map(copy);
  }
}
