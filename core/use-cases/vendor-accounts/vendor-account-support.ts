import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { TENANT_VENDOR_CHANNELS, type ProviderConfig } from '../../domain/provider.ts';
import { tenantEndpoints } from '../../domain/vendor-endpoints.ts';
import type { EgressPolicy } from '../../ports/egress-policy.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { ProviderFields, ProviderRepository } from '../../ports/provider-repository.ts';
import type { Storage } from '../../ports/storage.ts';
import { fieldError } from '../../errors.ts';
import { PROVIDER_FIELDS } from '../providers/configure-providers.ts';
import type { ProviderAdminDeps } from '../providers/provider-admin.ts';

/** Own vendor accounts one organization may hold. */
export const MAX_VENDOR_ACCOUNTS = 10;

/** Settings a tenant may not set: the endpoint (operator-controlled, VENDOR_BASE_URLS) and the process limits. */
const RESERVED_SETTINGS = ['baseUrl', 'maxConcurrency', 'maxPerSecond'];

const tenantSettings = v.pipe(PROVIDER_FIELDS.settings,
  v.check((s) => !Object.keys(s).some((k) => RESERVED_SETTINGS.includes(k)), `${RESERVED_SETTINGS.join(', ')} are set by the platform, not per account`));

export const VENDOR_ACCOUNT_FIELDS = {
  name: PROVIDER_FIELDS.name,
  priority: PROVIDER_FIELDS.priority,
  active: PROVIDER_FIELDS.active,
  countries: PROVIDER_FIELDS.countries,
  settings: tenantSettings,
  credentials: PROVIDER_FIELDS.credentials,
  platformFallback: v.boolean('must be true or false'),
};

/** The same ports as the platform's provider administration, and the egress policy URLs inside credentials are held to. */
export type VendorAccountDeps = ProviderAdminDeps & { egress: Pick<EgressPolicy, 'checkVendorUrl'> };

export interface MemberScope { organizationId: string; userId: string }

/** The channel of a vendor tenants may bring, or VENDOR_NOT_SUPPORTED. */
export function tenantVendorChannel(vendor: string) {
  const channel = TENANT_VENDOR_CHANNELS[vendor];
  if (!channel) throw new AppError('VENDOR_NOT_SUPPORTED', `Organizations cannot bring their own ${vendor} account`, { supported: Object.keys(TENANT_VENDOR_CHANNELS) });
  return channel;
}

/**
 * Refuses a configuration that does not build (missing credential or setting), or that names an endpoint
 * the egress policy forbids (an FCM `token_uri` off Google's hosts, a private address: SSRF), naming the field.
 */
export function checkAccountBuildable(deps: VendorAccountDeps, fields: ProviderFields, credentials: Record<string, string>, current: ProviderConfig | null): void {
  for (const endpoint of tenantEndpoints(fields.vendor, credentials)) {
    const reason = deps.egress.checkVendorUrl(fields.vendor, endpoint.url);
    if (reason) throw fieldError(endpoint.field, `${endpoint.path}: ${reason}`);
  }
  const now = deps.clock.now();
  const problem = deps.check({ id: current?.id ?? 'new', ...fields, hasCredentials: Object.keys(credentials).length > 0, createdAt: current?.createdAt ?? now, updatedAt: now }, credentials);
  if (problem) throw fieldError(/credential/i.test(problem) ? 'credentials' : 'settings', problem.replace(/^provider \S+: /, ''));
}

/** One audit entry per change, in the organization's log; credentials are named, never their values. */
export async function auditAccountChange(deps: VendorAccountDeps, scope: MemberScope, action: string, account: Pick<ProviderConfig, 'id' | 'name' | 'vendor'>,
  details: Record<string, unknown> = {}): Promise<void> {
  await deps.storage.auditLog.record({
    id: deps.ids.next(), actorUserId: scope.userId, impersonatorUserId: null, organizationId: scope.organizationId, action,
    target: `vendor-account:${account.id}`, details: { name: account.name, vendor: account.vendor, ...details }, createdAt: deps.clock.now(),
  });
}

/** The organization's own account, or NOT_FOUND (also for the platform's providers and other organizations' accounts). */
export async function ownedAccount(deps: Pick<VendorAccountDeps, 'providers'>, scope: { organizationId: string }, id: string): Promise<ProviderConfig> {
  const account = await deps.providers.findOwned(scope.organizationId, id);
  if (!account) throw new AppError('NOT_FOUND', 'Vendor account not found');
  return account;
}
