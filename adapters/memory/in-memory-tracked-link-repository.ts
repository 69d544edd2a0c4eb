import { MAX_TRACKED_LINKS_PER_MESSAGE } from '../../core/domain/tracked-links.ts';
import type { ClickRate, ClickRateGroup, ClickTally, FirstClick, TrackedLink, TrackedLinkRepository } from '../../core/ports/tracked-link-repository.ts';
import { copy, type MemoryState } from './memory-state.ts';

const MAX_GROUPS = 500;

export class InMemoryTrackedLinkRepository implements TrackedLinkRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async insertMany(links: readonly TrackedLink[]): Promise<void> {
    for (const link of links) {
      if (this.#state.trackedLinks.has(link.code)) throw new Error(`duplicate tracked link code ${link.code}`);
      this.#state.trackedLinks.set(link.code, { ...copy(link), clicks: 0, uniqueClicks: 0, firstClickedAt: null });
    }
  }

  async findByCode(code: string): Promise<TrackedLink | null> {
    const row = this.#state.trackedLinks.get(code);
    if (!row) return null;
    const { clicks: _c, uniqueClicks: _u, firstClickedAt: _f, ...link } = copy(row);
    return link;
  }

  async findManyByCodes(codes: readonly string[]): Promise<TrackedLink[]> {
    const found = await Promise.all([...new Set(codes)].slice(0, 1_000).map((c) => this.findByCode(c)));
    return found.filter((l) => l !== null);
  }

  async addClicks(tallies: readonly ClickTally[]): Promise<FirstClick[]> {
    const first: FirstClick[] = [];
    for (const t of tallies) {
      const row = this.#state.trackedLinks.get(t.code);
      if (!row) continue;
      row.clicks += t.clicks;
      row.uniqueClicks += t.uniqueClicks;
      if (row.firstClickedAt === null && t.clicks > 0) {
        row.firstClickedAt = t.firstAt;
        first.push({ code: row.code, organizationId: row.organizationId, messageId: row.messageId, templateId: row.templateId, url: row.url, clickedAt: t.firstAt });
      }
    }
    return first;
  }

  async purgeExpired(now: Date, limit: number): Promise<number> {
    let n = 0;
    for (const [code, l] of this.#state.trackedLinks) {
      if (n >= limit) break;
      if (l.expiresAt !== null && l.expiresAt.getTime() < now.getTime()) { this.#state.trackedLinks.delete(code); n += 1; }
    }
    return n;
  }

  async clickRates(organizationId: string, by: ClickRateGroup, from: Date, to: Date): Promise<ClickRate[]> {
    const campaignOf = new Map<string, string>();
    if (by === 'campaign') {
      for (const r of this.#state.campaignRecipients.values()) {
        if (r.messageId && this.#state.campaigns.get(r.campaignId)?.organizationId === organizationId) campaignOf.set(r.messageId, r.campaignId);
      }
    }
    const perMessage = new Map<string, { key: string; clicks: number; unique: number }>();
    for (const l of this.#state.trackedLinks.values()) {
      if (l.organizationId !== organizationId || l.url === 'open:') continue;
      if (l.createdAt < from || l.createdAt >= to) continue;
      const key = by === 'template' ? l.templateId : by === 'locale' ? this.#state.messages.get(l.messageId)?.locale ?? null : campaignOf.get(l.messageId);
      if (!key) continue;
      const m = perMessage.get(l.messageId) ?? { key, clicks: 0, unique: 0 };
      m.clicks += l.clicks; m.unique += l.uniqueClicks;
      perMessage.set(l.messageId, m);
    }
    const groups = new Map<string, ClickRate>();
    for (const m of perMessage.values()) {
      const g = groups.get(m.key) ?? { key: m.key, messages: 0, clickedMessages: 0, clicks: 0, uniqueClicks: 0 };
      g.messages += 1; g.clickedMessages += m.clicks > 0 ? 1 : 0; g.clicks += m.clicks; g.uniqueClicks += m.unique;
      groups.set(m.key, g);
    }
    return [...groups.values()].sort((a, b) => b.messages - a.messages || a.key.localeCompare(b.key)).slice(0, MAX_GROUPS);
  }

  async listForMessage(organizationId: string, messageId: string): Promise<Array<TrackedLink & { clicks: number; uniqueClicks: number; firstClickedAt: Date | null }>> {
    return [...this.#state.trackedLinks.values()]
      .filter((l) => l.organizationId === organizationId && l.messageId === messageId)
      .slice(0, MAX_TRACKED_LINKS_PER_MESSAGE + 1)
      .map((row) => copy(row));
  }
}
