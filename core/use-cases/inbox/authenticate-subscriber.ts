import { AppError } from '../../errors.ts';
import { isSubscriberId } from '../../domain/inbox.ts';
import type { Clock } from '../../ports/clock.ts';
import type { CredentialCipher } from '../../ports/credential-cipher.ts';
import type { Secrets } from '../../ports/secrets.ts';
import type { Storage } from '../../ports/storage.ts';

/** Whose feed a browser request may read: one subscriber of one organization. */
export interface SubscriberPrincipal { organizationId: string; subscriberId: string }

export interface SubscriberCredentials { appId?: string | undefined; subscriberId?: string | undefined; subscriberHash?: string | undefined }

/** How long an application's secret is reused from memory: a rotation reaches every process within this. */
export const INBOX_APP_CACHE_MS = 10_000;

/**
 * Checks a browser's inbox credentials (docs/inbox.md): the organization's public `appId`, a
 * `subscriberId`, and `subscriberHash` = hex HMAC-SHA256 of the subscriber id under the organization's
 * inbox secret, computed by the tenant's backend. Any mismatch is UNAUTHORIZED with one message, so
 * an unknown application cannot be told from a wrong hash. Compared in constant time.
 */
export class AuthenticateSubscriber {
  readonly #deps: { storage: Storage; secrets: Secrets; cipher: CredentialCipher; clock: Clock; cacheMs?: number };
  readonly #apps = new Map<string, { organizationId: string; secret: string; until: number } | { organizationId: null; until: number }>();
  constructor(deps: { storage: Storage; secrets: Secrets; cipher: CredentialCipher; clock: Clock; cacheMs?: number }) { this.#deps = deps; }

  async execute(credentials: SubscriberCredentials): Promise<SubscriberPrincipal> {
    const { appId, subscriberId, subscriberHash } = credentials;
    // Missing credentials answer like wrong ones (docs/inbox.md): one message whatever was wrong.
    if (!appId || !subscriberId || !subscriberHash) throw denied();
    if (appId.length > 64 || !isSubscriberId(subscriberId) || !/^[0-9a-f]{64}$/i.test(subscriberHash)) throw denied();
    const app = await this.#app(appId);
    if (!app.organizationId) throw denied();
    const expected = this.#deps.secrets.hmacSha256(app.secret, subscriberId);
    if (!this.#deps.secrets.safeEqual(expected, subscriberHash.toLowerCase())) throw denied();
    return { organizationId: app.organizationId, subscriberId };
  }

  /** Forgets a cached application (after a rotation in this process). */
  forget(appId: string): void { this.#apps.delete(appId); }

  async #app(appId: string) {
    const now = this.#deps.clock.now().getTime();
    const cached = this.#apps.get(appId);
    if (cached && cached.until > now) return cached;
    const settings = await this.#deps.storage.inbox.findSettingsByAppId(appId);
    const until = now + (this.#deps.cacheMs ?? INBOX_APP_CACHE_MS);
    const entry = settings ? { organizationId: settings.organizationId, secret: this.#deps.cipher.decrypt(settings.secretCiphertext), until } : { organizationId: null, until };
    if (this.#apps.size >= 10_000) this.#apps.clear(); // bounded: unknown app ids cannot grow it without limit
    this.#apps.set(appId, entry);
    return entry;
  }
}

/** The one message of every inbox authentication failure: missing, malformed or wrong. */
export const INBOX_DENIED_MESSAGE = 'Missing or invalid inbox credentials (appId, subscriberId and subscriberHash)';

function denied(): AppError {
  return new AppError('UNAUTHORIZED', INBOX_DENIED_MESSAGE);
}
