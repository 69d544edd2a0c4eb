/** Organization member roles (spec section 2), most powerful first. */
export const MEMBER_ROLES = ['TENANT_OWNER', 'TENANT_ADMIN', 'CAMPAIGN_MANAGER', 'COMPLIANCE_REVIEWER', 'DEVELOPER', 'VIEWER'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export const PLATFORM_ROLES = ['PLATFORM_SUPER_ADMIN'] as const;
export type PlatformRole = (typeof PLATFORM_ROLES)[number];

/**
 * What a member may do, by route group. `read` covers listing and viewing; `write` covers create,
 * update, delete and actions. This table is the single place roles are enforced
 * (docs/permissions.md renders it for humans).
 */
export const PERMISSIONS = [
  'organization:read', 'organization:write',
  'members:read', 'members:invite',
  'api-keys:read', 'api-keys:write',
  'messages:read', 'messages:send',
  'templates:read', 'templates:write',
  'events:read', 'events:write', 'events:trigger',
  'contacts:read', 'contacts:write',
  'segments:read', 'segments:write',
  'campaigns:read', 'campaigns:write', 'campaigns:send',
  'delivery-logs:read',
  'analytics:read',
  'billing:read', 'billing:write',
  'compliance:read', 'compliance:write',
  'webhooks:read', 'webhooks:write',
  'providers:read',
  'senders:read', 'senders:write',
  'vendor-accounts:read', 'vendor-accounts:write',
  'verify:read', 'verify:send', 'verify:settings',
  'conversations:read', 'conversations:write',
  'audit-log:read',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** The audit log is for owners and admins only (docs/audit-log.md): it shows who did what, from which address. */
const OWNERS_AND_ADMINS_ONLY: readonly Permission[] = ['audit-log:read'];

const READ_ALL = PERMISSIONS.filter((p) => p.endsWith(':read') && !OWNERS_AND_ADMINS_ONLY.includes(p));

const ROLE_PERMISSIONS: Record<MemberRole, readonly Permission[]> = {
  TENANT_OWNER: PERMISSIONS,
  TENANT_ADMIN: PERMISSIONS,
  CAMPAIGN_MANAGER: [...READ_ALL, 'messages:send', 'verify:send', 'templates:write', 'events:write', 'events:trigger', 'contacts:write',
    'segments:write', 'campaigns:write', 'campaigns:send', 'conversations:write'],
  COMPLIANCE_REVIEWER: [...READ_ALL, 'compliance:write'],
  DEVELOPER: [...READ_ALL, 'api-keys:write', 'messages:send', 'verify:send', 'templates:write', 'events:write', 'events:trigger', 'webhooks:write'],
  VIEWER: READ_ALL,
};

export function roleAllows(role: MemberRole, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

export function permissionsOf(role: MemberRole): readonly Permission[] {
  return ROLE_PERMISSIONS[role];
}

/** Roles allowed to invite members and the roles they may grant. Only an owner may grant TENANT_OWNER. */
export function canGrantRole(inviter: MemberRole, granted: MemberRole): boolean {
  if (inviter === 'TENANT_OWNER') return true;
  if (inviter === 'TENANT_ADMIN') return granted !== 'TENANT_OWNER';
  return false;
}
