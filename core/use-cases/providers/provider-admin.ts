import * as v from 'valibot';
import type { ProviderConfig } from '../../domain/provider.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { ProviderFields, ProviderRepository } from '../../ports/provider-repository.ts';
import type { Storage } from '../../ports/storage.ts';
import { fieldError } from '../../errors.ts';
import type { AdminActor } from '../admin/admin-actor.ts';
import { PROVIDER_FIELDS } from './configure-providers.ts';

/** What the provider administration use cases need (CreateProvider, UpdateProvider, DeleteProvider). */
export interface ProviderAdminDeps {
  providers: ProviderRepository;
  storage: Pick<Storage, 'auditLog'>;
  ids: IdGenerator;
  clock: Clock;
  /**
   * Whether the vendor can be built from this configuration: null when it can, else why (an unknown
   * vendor, a missing credential or setting). Supplied by the host (the vendor factory).
   */
  check: (config: ProviderConfig, credentials: Record<string, string>) => string | null;
  /** Told after every change: the process applies it at once (others within seconds: configVersion). */
  onChanged?: () => Promise<void>;
}

/** PATCH body: any field (no defaults: an absent field stays as it is); `credentials`, when given, replace the stored ones. */
export const ProviderPatch = v.object(Object.fromEntries(Object.entries(PROVIDER_FIELDS).map(([k, s]) => [k, v.optional(s)])) as {
  [K in keyof typeof PROVIDER_FIELDS]: v.OptionalSchema<(typeof PROVIDER_FIELDS)[K], undefined>
});

/** Refuses a configuration the vendor factory cannot build, naming the field at fault. */
export function checkBuildable(deps: ProviderAdminDeps, fields: ProviderFields, credentials: Record<string, string>, current: ProviderConfig | null): void {
  const now = deps.clock.now();
  const candidate: ProviderConfig = { id: current?.id ?? 'new', ...fields, hasCredentials: Object.keys(credentials).length > 0, createdAt: current?.createdAt ?? now, updatedAt: now };
  const problem = deps.check(candidate, credentials);
  if (problem) throw fieldError(/credential/i.test(problem) ? 'credentials' : /vendor/i.test(problem) ? 'vendor' : 'settings', problem);
}

/** One audit entry per change; credentials are named, never their values. */
export async function auditProviderChange(deps: ProviderAdminDeps, admin: AdminActor, action: string, provider: Pick<ProviderConfig, 'id' | 'name'>,
  details: Record<string, unknown>): Promise<void> {
  await deps.storage.auditLog.record({
    id: deps.ids.next(), actorUserId: admin.userId, impersonatorUserId: null, organizationId: null, action,
    target: `provider:${provider.id}`, details: { name: provider.name, ...details }, createdAt: deps.clock.now(),
  });
}
