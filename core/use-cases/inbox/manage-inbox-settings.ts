import type { InboxSettings } from '../../domain/inbox.ts';
import type { Clock } from '../../ports/clock.ts';
import type { CredentialCipher } from '../../ports/credential-cipher.ts';
import type { Secrets } from '../../ports/secrets.ts';
import type { Storage } from '../../ports/storage.ts';

export interface InboxSettingsDeps {
  storage: Storage;
  secrets: Secrets;
  cipher: CredentialCipher;
  clock: Clock;
}

/** Public view: never the secret. */
export function inboxSettingsView(settings: InboxSettings | null) {
  return settings
    ? { configured: true, appId: settings.appId, secretHint: `…${settings.secretHint}`, createdAt: settings.createdAt.toISOString(), rotatedAt: settings.rotatedAt.toISOString() }
    : { configured: false, appId: null, secretHint: null, createdAt: null, rotatedAt: null };
}

/**
 * GET /inbox/settings and POST /inbox/settings/secret (docs/inbox.md): an organization's public
 * application id and the secret its backend signs subscriber ids with. The secret is generated here,
 * answered once when (re)created and kept only encrypted; rotating invalidates every subscriberHash
 * made with the old one at once. The application id, created with the first secret, never changes.
 */
export class ManageInboxSettings {
  readonly #deps: InboxSettingsDeps;
  constructor(deps: InboxSettingsDeps) { this.#deps = deps; }

  async get(organizationId: string): Promise<ReturnType<typeof inboxSettingsView>> {
    return inboxSettingsView(await this.#deps.storage.inbox.getSettings(organizationId));
  }

  async rotate(organizationId: string): Promise<ReturnType<typeof inboxSettingsView> & { secret: string }> {
    const { storage, secrets, cipher, clock } = this.#deps;
    const now = clock.now();
    const existing = await storage.inbox.getSettings(organizationId);
    const secret = `nk_inbox_${secrets.randomToken(32)}`;
    const settings: InboxSettings = {
      organizationId, appId: existing?.appId ?? `app_${secrets.randomToken(12)}`, secretCiphertext: cipher.encrypt(secret), secretHint: secret.slice(-4),
      createdAt: existing?.createdAt ?? now, rotatedAt: now,
    };
    await storage.inbox.saveSettings(settings);
    const saved = await storage.inbox.getSettings(organizationId);
    return { ...inboxSettingsView(saved ?? settings), secret };
  }
}
