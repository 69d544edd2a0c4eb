import { AddVendorAccountInput, type AddVendorAccount } from '../../../core/use-cases/vendor-accounts/add-vendor-account.ts';
import type { ListVendorAccounts } from '../../../core/use-cases/vendor-accounts/list-vendor-accounts.ts';
import type { RemoveVendorAccount } from '../../../core/use-cases/vendor-accounts/remove-vendor-account.ts';
import type { TestVendorAccount } from '../../../core/use-cases/vendor-accounts/test-vendor-account.ts';
import { UpdateVendorAccountInput, type UpdateVendorAccount } from '../../../core/use-cases/vendor-accounts/update-vendor-account.ts';
import { ProviderTestInput } from '../../../core/use-cases/providers/send-provider-test-message.ts';
import { ok, requireMember, requireTenant, type RouteDefinition } from '../route.ts';

export interface VendorAccountRouteDeps {
  addVendorAccount: AddVendorAccount;
  listVendorAccounts: ListVendorAccounts;
  updateVendorAccount: UpdateVendorAccount;
  removeVendorAccount: RemoveVendorAccount;
  testVendorAccount: TestVendorAccount;
  /** PUBLIC_URL: each account's callback URL is shown in full, for pasting into the vendor's dashboard. */
  publicUrl: string;
}

type AccountView = { callbackPath?: string | null };
/** The account (or each of a list's items) with `callbackUrl`: PUBLIC_URL + its own callback path, null for a vendor without callbacks. */
function withCallbackUrl<T extends object>(data: T, publicUrl: string): T {
  const one = (a: AccountView) => ({ ...a, callbackUrl: a.callbackPath ? `${publicUrl}${a.callbackPath}` : null });
  if ('items' in data && Array.isArray(data.items)) return { ...data, items: (data.items as AccountView[]).map(one) };
  return one(data as AccountView) as T;
}

const DENIED = { 400: 'ORGANIZATION_REQUIRED', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN (the role lacks the permission)' };
const NOT_FOUND = { 404: 'NOT_FOUND (unknown id, a platform provider, or another organization\'s account)' };

/** An organization's own vendor accounts (docs/providers.md, "Tenant-owned vendor accounts"). */
export function vendorAccountRoutes(deps: VendorAccountRouteDeps): RouteDefinition[] {
  return [
    {
      method: 'GET', path: '/vendor-accounts', tag: 'Vendor accounts', summary: 'The organization\'s own vendor accounts (never credentials), the supported vendors and the per-message fee',
      auth: 'tenant', permission: 'vendor-accounts:read',
      responses: { 200: '{ items (at most 10, each with its callbackUrl), limit, supportedVendors, feePerMessage, currency }', ...DENIED },
      handler: async (input) => ok(withCallbackUrl(await deps.listVendorAccounts.execute(requireTenant(input)), deps.publicUrl)),
    },
    {
      method: 'GET', path: '/vendor-accounts/:id', tag: 'Vendor accounts', summary: 'One own vendor account with its health history',
      auth: 'tenant', permission: 'vendor-accounts:read',
      responses: { 200: 'The account and healthHistory (newest 20)', ...DENIED, ...NOT_FOUND },
      handler: async (input) => ok(withCallbackUrl(await deps.listVendorAccounts.one(requireTenant(input), input.params['id'] ?? ''), deps.publicUrl)),
    },
    {
      method: 'POST', path: '/vendor-accounts', tag: 'Vendor accounts', summary: 'Add an own vendor account: its sends route through it first, at the own-account fee',
      auth: 'tenant', permission: 'vendor-accounts:write', body: AddVendorAccountInput,
      responses: {
        201: 'The account (credentials are write-only)', ...DENIED, 400: 'VALIDATION_ERROR (a missing credential or setting, a reserved setting such as baseUrl)',
        409: 'CONFLICT (name already used by the organization)', 422: 'VENDOR_NOT_SUPPORTED, LIMIT_REACHED (10 per organization)',
      },
      handler: async (input) => ok(withCallbackUrl(await deps.addVendorAccount.execute(requireMember(input), input.body), deps.publicUrl), 201),
    },
    {
      method: 'PATCH', path: '/vendor-accounts/:id', tag: 'Vendor accounts', summary: 'Change an own vendor account; credentials, when given, replace the stored ones (rotation)',
      auth: 'tenant', permission: 'vendor-accounts:write', body: UpdateVendorAccountInput,
      responses: { 200: 'The account', ...DENIED, 400: 'VALIDATION_ERROR', ...NOT_FOUND, 409: 'CONFLICT (name)' },
      handler: async (input) => ok(withCallbackUrl(await deps.updateVendorAccount.execute(requireMember(input), input.params['id'] ?? '', input.body), deps.publicUrl)),
    },
    {
      method: 'DELETE', path: '/vendor-accounts/:id', tag: 'Vendor accounts', summary: 'Remove an own vendor account and its credentials',
      auth: 'tenant', permission: 'vendor-accounts:write',
      responses: { 200: '{ id, deleted }', ...DENIED, ...NOT_FOUND },
      handler: async (input) => ok(await deps.removeVendorAccount.execute(requireMember(input), input.params['id'] ?? '')),
    },
    {
      method: 'POST', path: '/vendor-accounts/:id/test-message', tag: 'Vendor accounts', summary: 'Send one test message through exactly this account (not recorded, not charged)',
      auth: 'tenant', permission: 'vendor-accounts:write', body: ProviderTestInput,
      responses: { 200: 'The vendor\'s answer: accepted with its message id, or its error', ...DENIED, 400: 'VALIDATION_ERROR', ...NOT_FOUND, 503: 'PROVIDER_UNAVAILABLE (inactive)' },
      handler: async (input) => ok(await deps.testVendorAccount.execute(requireMember(input), input.params['id'] ?? '', input.body)),
    },
  ];
}

