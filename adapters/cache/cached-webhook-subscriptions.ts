import type { OutboundEventKind } from '../../core/domain/outbound-event.ts';
import type { WebhookEndpointRepository } from '../../core/ports/webhook-endpoint-repository.ts';
import type { WebhookSubscriptions } from '../../core/ports/webhook-subscriptions.ts';

const MAX_ENTRIES = 50_000;
/** Every cache of this process: an endpoint change made through one container (API) refreshes the others (worker). */
const instances = new Set<WeakRef<CachedWebhookSubscriptions>>();

/**
 * "Has subscribers" per organization and kind, cached in process for `ttlMs` (default 5 s) so the
 * send path costs no statement for organizations without webhooks. Invalidated at once in this
 * process on endpoint changes; another process (a separate API) may see a change up to `ttlMs` late,
 * so an endpoint created there misses status events of at most that window (docs/webhooks.md).
 */
export class CachedWebhookSubscriptions implements WebhookSubscriptions {
  readonly #source: () => Pick<WebhookEndpointRepository, 'hasSubscribers'>;
  readonly #ttlMs: number;
  readonly #entries = new Map<string, { found: Promise<boolean>; until: number }>();
  constructor(source: () => Pick<WebhookEndpointRepository, 'hasSubscribers'>, ttlMs = 5_000) {
    this.#source = source; this.#ttlMs = ttlMs;
    instances.add(new WeakRef(this));
  }

  hasSubscribers(organizationId: string, kind: OutboundEventKind): Promise<boolean> {
    const key = `${organizationId}\u0000${kind}`;
    const now = Date.now();
    const hit = this.#entries.get(key);
    if (hit && hit.until > now) return hit.found;
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.clear();
    const found = this.#source().hasSubscribers(organizationId, kind);
    this.#entries.set(key, { found, until: now + this.#ttlMs });
    found.catch(() => this.#entries.delete(key));
    return found;
  }

  invalidate(organizationId: string): void {
    for (const ref of instances) {
      const cache = ref.deref();
      if (!cache) { instances.delete(ref); continue; }
      cache.#forget(organizationId);
    }
  }

  #forget(organizationId: string): void {
    for (const key of this.#entries.keys()) if (key.startsWith(`${organizationId}\u0000`)) this.#entries.delete(key);
  }
}
