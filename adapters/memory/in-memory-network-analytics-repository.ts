import { percentileCont } from '../../core/domain/provider-metrics.ts';
import { MAX_NETWORK_FIGURES, type NetworkAnalyticsRepository, type NetworkFigures } from '../../core/ports/network-analytics-repository.ts';
import type { MemoryState } from './memory-state.ts';

/** Per-network figures from the in-memory messages (the same rules as the SQL adapter). */
export class InMemoryNetworkAnalyticsRepository implements NetworkAnalyticsRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async byNetwork(organizationId: string, from: Date, to: Date): Promise<NetworkFigures[]> {
    const groups = new Map<string, NetworkFigures & { latencies: number[] }>();
    for (const m of this.#state.messages.values()) {
      if (m.organizationId !== organizationId || m.isSandbox || !m.network || !m.country || m.createdAt < from || m.createdAt >= to) continue;
      const key = `${m.country}|${m.network}|${m.provider ?? ''}`;
      const g = groups.get(key) ?? { country: m.country, network: m.network, provider: m.provider, messages: 0, delivered: 0, failed: 0, cost: 0, latencyP50Ms: null, latencyP95Ms: null, latencies: [] };
      groups.set(key, g);
      g.messages++;
      if (m.status === 'DELIVERED') g.delivered++;
      if (m.status === 'FAILED') g.failed++;
      g.cost += m.cost;
      if (m.status === 'DELIVERED' && m.sentAt && m.deliveredAt) g.latencies.push(m.deliveredAt.getTime() - m.sentAt.getTime());
    }
    return [...groups.values()].map(({ latencies, ...g }) => ({ ...g, latencyP50Ms: roundOrNull(percentileCont(latencies, 0.5)), latencyP95Ms: roundOrNull(percentileCont(latencies, 0.95)) }))
      .sort((a, b) => b.messages - a.messages || `${a.country}${a.network}${a.provider}`.localeCompare(`${b.country}${b.network}${b.provider}`)).slice(0, MAX_NETWORK_FIGURES);
  }
}

function roundOrNull(x: number | null): number | null { return x === null ? null : Math.round(x); }
