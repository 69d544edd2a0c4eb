import type { RouteShiftAudience } from '../../core/ports/route-shift-audience.ts';
import type { MemoryState } from './memory-state.ts';

/** Organizations a route shift affects, from the messages in memory: the same rules as the SQL adapter. */
export class InMemoryRouteShiftAudience implements RouteShiftAudience {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async organizationsReaching(query: { country: string; network: string; providers: readonly string[]; since: Date }, after: string | null, limit: number): Promise<string[]> {
    const found = new Set<string>();
    for (const m of this.#state.messages.values()) {
      if (m.isSandbox || m.createdAt < query.since || m.country !== query.country || m.network !== query.network || !m.provider || !query.providers.includes(m.provider)) continue;
      if (after === null || m.organizationId > after) found.add(m.organizationId);
    }
    return [...found].sort().slice(0, Math.max(0, limit));
  }
}
