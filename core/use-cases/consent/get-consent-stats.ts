import type { Clock } from '../../ports/clock.ts';
import type { Repositories } from '../../ports/storage.ts';

const DAY_MS = 86_400_000;

/** GET /consent/stats: opt-outs in force by category and channel, opt-outs per day over 30 days, suppression entries. */
export class GetConsentStats {
  readonly #deps: { storage: Repositories; clock: Clock };
  constructor(deps: { storage: Repositories; clock: Clock }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }) {
    const since = new Date(this.#deps.clock.now().getTime() - 30 * DAY_MS);
    const stats = await this.#deps.storage.suppressions.preferenceStats(scope.organizationId, since);
    return { since: since.toISOString(), ...stats, optedOut: stats.byCategory.reduce((n, r) => n + r.count, 0) };
  }
}
