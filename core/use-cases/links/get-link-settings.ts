import { defaultLinkSettings, linkSettingsView } from '../../domain/link-settings.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';

/** GET /links/settings: the organization's tracking settings (the defaults before any change) and where its links point. */
export class GetLinkSettings {
  readonly #deps: { storage: Storage; clock: Clock; platformBase: string };
  constructor(deps: { storage: Storage; clock: Clock; platformBase: string }) { this.#deps = deps; }

  async execute(organizationId: string) {
    const { storage, clock, platformBase } = this.#deps;
    const settings = await storage.linkSettings.find(organizationId) ?? defaultLinkSettings(organizationId, clock.now());
    return linkSettingsView(settings, platformBase);
  }
}
