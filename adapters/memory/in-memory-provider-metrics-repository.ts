import type { Channel } from '../../core/domain/channel.ts';
import { percentileCont, startOfMinute } from '../../core/domain/provider-metrics.ts';
import type { MessageAttempt } from '../../core/ports/message-status-repository.ts';
import type { ChannelQueueFigures, ProviderAttemptFigures, ProviderAttemptMinute, ProviderMetricsRepository } from '../../core/ports/provider-metrics-repository.ts';
import type { MemoryState } from './memory-state.ts';

/** Provider metrics computed from the in-memory attempts and messages (the same rules as the SQL adapter). */
export class InMemoryProviderMetricsRepository implements ProviderMetricsRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async attempts(from: Date, to: Date, topErrors: number): Promise<{ providers: ProviderAttemptFigures[]; minutes: ProviderAttemptMinute[] }> {
    const inWindow = this.#state.attempts.filter((a) => a.createdAt >= from && a.createdAt < to);
    const providers = [...group(inWindow, (a) => a.provider)].sort(([a], [b]) => (a < b ? -1 : 1)).map(([provider, rows]) => {
      const durations = rows.map((a) => a.durationMs);
      const failed = rows.filter((a) => a.outcome === 'FAILED');
      const errors = [...group(failed, (a) => a.errorCode ?? 'UNKNOWN')].map(([code, list]) => ({ code, count: list.length }))
        .sort((a, b) => b.count - a.count || (a.code < b.code ? -1 : 1)).slice(0, topErrors);
      return {
        provider, attempts: rows.length, accepted: rows.length - failed.length, failed: failed.length,
        p50Ms: percentileCont(durations, 0.5), p95Ms: percentileCont(durations, 0.95), maxMs: Math.max(...durations), errors,
      };
    });
    const minutes = [...group(inWindow, (a) => `${a.provider}\u0000${startOfMinute(a.createdAt).toISOString()}`)].map(([, rows]) => ({
      provider: rows[0]!.provider, minute: startOfMinute(rows[0]!.createdAt), attempts: rows.length,
      failed: rows.filter((a) => a.outcome === 'FAILED').length, p95Ms: percentileCont(rows.map((a) => a.durationMs), 0.95),
    })).sort((a, b) => (a.provider < b.provider ? -1 : a.provider > b.provider ? 1 : a.minute.getTime() - b.minute.getTime()));
    return { providers, minutes };
  }

  async queues(): Promise<ChannelQueueFigures[]> {
    const byChannel = new Map<Channel, ChannelQueueFigures>();
    for (const m of this.#state.messages.values()) {
      if (m.status !== 'QUEUED' && m.status !== 'PENDING') continue;
      const figures = byChannel.get(m.channel) ?? { channel: m.channel, queued: 0, pending: 0, oldestQueuedAt: null };
      if (m.status === 'PENDING') figures.pending += 1;
      else {
        figures.queued += 1;
        if (!figures.oldestQueuedAt || m.createdAt < figures.oldestQueuedAt) figures.oldestQueuedAt = new Date(m.createdAt);
      }
      byChannel.set(m.channel, figures);
    }
    return [...byChannel.values()].sort((a, b) => (a.channel < b.channel ? -1 : 1));
  }
}

function group<K>(rows: readonly MessageAttempt[], key: (a: MessageAttempt) => K): Map<K, MessageAttempt[]> {
  const groups = new Map<K, MessageAttempt[]>();
  for (const row of rows) {
    const k = key(row);
    const list = groups.get(k);
    if (list) list.push(row); else groups.set(k, [row]);
  }
  return groups;
}
