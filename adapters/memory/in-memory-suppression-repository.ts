import type { Channel, TemplateCategory } from '../../core/domain/channel.ts';
import { blocks, type PreferenceStats, type Suppression, type SuppressionCandidate, type SuppressionRepository } from '../../core/ports/suppression-repository.ts';
import { AppError } from '../../core/errors.ts';
import { copy, type MemoryState } from './memory-state.ts';

export class InMemorySuppressionRepository implements SuppressionRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async insert(entry: Suppression): Promise<void> {
    const duplicate = [...this.#state.suppressions.values()].some((s) => s.organizationId === entry.organizationId
      && s.phone === entry.phone && s.email === entry.email && s.channel === entry.channel && s.category === entry.category);
    if (duplicate) throw new AppError('CONFLICT', 'suppression entry already exists');
    this.#state.suppressions.set(entry.id, copy(entry));
  }

  async findMatch(organizationId: string, channel: Channel, recipient: string, category: TemplateCategory = 'TRANSACTIONAL'): Promise<Suppression | null> {
    const wanted = recipient.toLowerCase();
    const hits = [...this.#state.suppressions.values()].filter((s) => s.organizationId === organizationId
      && (s.phone === recipient || s.email === wanted) && blocks(s, channel, category));
    const hit = hits.find((s) => s.category === null) ?? hits[0];
    return hit ? copy(hit) : null;
  }

  async findMatches(candidates: readonly SuppressionCandidate[]): Promise<Array<Suppression | null>> {
    return Promise.all(candidates.map((c) => this.findMatch(c.organizationId, c.channel, c.recipient, c.category)));
  }

  async findPreferenceEntries(organizationId: string, recipients: readonly string[]): Promise<Suppression[]> {
    const wanted = new Set(recipients.flatMap((r) => [r, r.toLowerCase()]));
    return [...this.#state.suppressions.values()].filter((s) => s.organizationId === organizationId && s.category !== null
      && ((s.phone !== null && wanted.has(s.phone)) || (s.email !== null && wanted.has(s.email)))).slice(0, 1_000).map(copy);
  }

  async removePreference(organizationId: string, channel: Channel, recipient: string, category: TemplateCategory): Promise<boolean> {
    const hit = [...this.#state.suppressions.values()].find((s) => s.organizationId === organizationId && s.channel === channel
      && s.category === category && (s.phone === recipient || s.email === recipient.toLowerCase()));
    return hit ? this.#state.suppressions.delete(hit.id) : false;
  }

  async preferenceStats(organizationId: string, since: Date): Promise<PreferenceStats> {
    const mine = [...this.#state.suppressions.values()].filter((s) => s.organizationId === organizationId);
    const byCategory = new Map<string, { category: TemplateCategory; channel: Channel | null; count: number }>();
    const daily = new Map<string, number>();
    for (const s of mine.filter((e) => e.category !== null)) {
      const key = `${s.category}|${s.channel}`;
      byCategory.set(key, { category: s.category!, channel: s.channel, count: (byCategory.get(key)?.count ?? 0) + 1 });
      if (s.createdAt >= since) { const day = s.createdAt.toISOString().slice(0, 10); daily.set(day, (daily.get(day) ?? 0) + 1); }
    }
    return {
      byCategory: [...byCategory.values()].sort((a, b) => b.count - a.count || a.category.localeCompare(b.category) || String(a.channel).localeCompare(String(b.channel))),
      daily: [...daily].sort(([a], [b]) => a.localeCompare(b)).map(([day, count]) => ({ day, count })),
      suppressed: mine.filter((s) => s.category === null).length,
    };
  }

  async list(organizationId: string, offset: number, limit: number): Promise<{ items: Suppression[]; total: number }> {
    const all = [...this.#state.suppressions.values()].filter((s) => s.organizationId === organizationId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    return { items: all.slice(offset, offset + limit).map(copy), total: all.length };
  }

  async remove(organizationId: string, id: string): Promise<boolean> {
    const s = this.#state.suppressions.get(id);
    if (!s || s.organizationId !== organizationId) return false;
    return this.#state.suppressions.delete(id);
  }
}
