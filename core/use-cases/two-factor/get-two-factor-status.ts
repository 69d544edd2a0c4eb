import type { TwoFactorDeps } from './two-factor-support.ts';

/** What a signed-in user sees of their own two-factor setup: never a secret, only which factors exist. */
export class GetTwoFactorStatus {
  readonly #deps: Pick<TwoFactorDeps, 'storage' | 'settings'>;
  constructor(deps: Pick<TwoFactorDeps, 'storage' | 'settings'>) { this.#deps = deps; }

  async execute(userId: string) {
    const { storage, settings } = this.#deps;
    const [user, totp, passkeys, recoveryCodesLeft, byOrganization] = await Promise.all([
      storage.users.findById(userId), storage.secondFactors.findTotp(userId), storage.secondFactors.listPasskeys(userId),
      storage.secondFactors.countUnusedRecoveryCodes(userId), storage.twoFactorPolicies.requiredForUser(userId),
    ]);
    const totpEnabled = Boolean(totp?.confirmedAt);
    return {
      enabled: totpEnabled || passkeys.length > 0,
      totp: { enabled: totpEnabled, pending: Boolean(totp && !totp.confirmedAt) },
      passkeys: passkeys.map((p) => ({ id: p.id, name: p.name, createdAt: p.createdAt.toISOString(), lastUsedAt: p.lastUsedAt?.toISOString() ?? null })),
      recoveryCodesLeft,
      required: { byOrganization, byPlatform: settings.requiredForPlatformAdmins && user?.platformRole === 'PLATFORM_SUPER_ADMIN' },
    };
  }
}
