import * as v from 'valibot';
import { parseInput } from '../../validation.ts';
import type { VerifySettings } from '../../domain/verification.ts';
import { countryCodeSchema } from '../messaging/message-preparation.ts';
import { settingsOf, type VerifyDeps } from './verify-support.ts';

const int = (min: number, max: number) => v.pipe(v.number('must be a number'), v.integer('must be a whole number'), v.minValue(min, `must be at least ${min}`), v.maxValue(max, `must be at most ${max}`));

/** PUT /verify/settings: every field optional; absent ones keep their value. */
export const VerifySettingsInput = v.object({
  allowedCountries: v.optional(v.pipe(v.array(countryCodeSchema, 'must be an array of country codes'), v.minLength(1, 'must allow at least one country'), v.maxLength(50, 'at most 50 countries'))),
  maxStartsPerRecipientPerHour: v.optional(int(1, 100)),
  maxStartsPerIpPerHour: v.optional(int(1, 10_000)),
  maxStartsPerHour: v.optional(int(1, 1_000_000)),
  codeLength: v.optional(int(4, 10)),
  expiresInSeconds: v.optional(int(60, 3600)),
  prefixBlocking: v.optional(v.boolean('must be true or false')),
});

/** GET/PUT /verify/settings: the organization's SMS-pumping rules and defaults (docs/verify.md). Audited on change. */
export class ManageVerifySettings {
  readonly #deps: Pick<VerifyDeps, 'storage' | 'clock' | 'ids'>;
  constructor(deps: Pick<VerifyDeps, 'storage' | 'clock' | 'ids'>) { this.#deps = deps; }

  get(scope: { organizationId: string }): Promise<VerifySettings> {
    return settingsOf(this.#deps.storage, scope.organizationId);
  }

  async put(scope: { organizationId: string; userId: string }, raw: unknown): Promise<VerifySettings> {
    const input = parseInput(VerifySettingsInput, raw);
    const { storage, clock, ids } = this.#deps;
    const current = await settingsOf(storage, scope.organizationId);
    const next: VerifySettings = {
      ...current, ...Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)),
      ...(input.allowedCountries ? { allowedCountries: [...new Set(input.allowedCountries)] } : {}),
    };
    await storage.transaction(async (tx) => {
      await tx.verifications.saveSettings(scope.organizationId, next, clock.now());
      await tx.auditLog.record({ id: ids.next(), actorUserId: scope.userId, impersonatorUserId: null, organizationId: scope.organizationId, action: 'verify.settings',
        target: `organization:${scope.organizationId}`, details: { ...next }, createdAt: clock.now() });
    });
    return next;
  }
}
