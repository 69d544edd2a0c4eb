import type { MemberRole } from '../../../core/domain/roles.ts';
import type { GetCurrentOrganization } from '../../../core/use-cases/organizations/get-current-organization.ts';
import { InviteMemberInput, type InviteMember } from '../../../core/use-cases/organizations/invite-member.ts';
import type { ListMembers } from '../../../core/use-cases/organizations/list-members.ts';
import { UpdateOrganizationInput, type UpdateOrganization } from '../../../core/use-cases/organizations/update-organization.ts';
import { ok, requireTenant, type RequestInput, type RouteDefinition } from '../route.ts';

export interface OrganizationRouteDeps {
  getCurrentOrganization: GetCurrentOrganization;
  updateOrganization: UpdateOrganization;
  listMembers: ListMembers;
  inviteMember: InviteMember;
}

const DENIED = { 400: 'ORGANIZATION_REQUIRED', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN (not a member, or the role lacks the permission)' };

export function organizationRoutes(deps: OrganizationRouteDeps): RouteDefinition[] {
  return [
    {
      method: 'GET', path: '/organizations/current', tag: 'Organizations', summary: 'The current organization with its wallet and members',
      auth: 'tenant', permission: 'organization:read',
      responses: { 200: 'Organization with wallet (GHS) and members', ...DENIED, 404: 'NOT_FOUND' },
      handler: async (input) => ok(await deps.getCurrentOrganization.execute(memberScope(input))),
    },
    {
      method: 'PATCH', path: '/organizations/current', tag: 'Organizations', summary: 'Update the current organization',
      auth: 'tenant', permission: 'organization:write', body: UpdateOrganizationInput,
      responses: { 200: 'The updated organization', ...DENIED, 400: 'VALIDATION_ERROR or ORGANIZATION_REQUIRED', 404: 'NOT_FOUND' },
      handler: async (input) => ok(await deps.updateOrganization.execute(memberScope(input), input.body)),
    },
    {
      method: 'GET', path: '/organizations/members', tag: 'Organizations', summary: 'Members of the current organization with user profiles',
      auth: 'tenant', permission: 'members:read',
      responses: { 200: 'Members (at most 200), oldest first', ...DENIED },
      handler: async (input) => ok(await deps.listMembers.execute(memberScope(input))),
    },
    {
      method: 'POST', path: '/organizations/invite', tag: 'Organizations', summary: 'Add a registered user to the current organization',
      auth: 'tenant', permission: 'members:invite', body: InviteMemberInput,
      responses: {
        201: 'Member added', ...DENIED, 400: 'VALIDATION_ERROR or ORGANIZATION_REQUIRED',
        403: 'FORBIDDEN (not a member, role may not invite, or may not grant that role)',
        404: 'USER_NOT_FOUND (the user must register first)', 409: 'CONFLICT (already a member)',
      },
      handler: async (input) => ok(await deps.inviteMember.execute(memberScope(input), input.body), 201),
    },
  ];
}

/** The member session behind a `tenant` route (these routes take no API keys). */
function memberScope(input: RequestInput): { organizationId: string; userId: string; role: MemberRole } {
  const tenant = requireTenant(input);
  if (!tenant.userId || !tenant.role) throw new Error('organization routes need a member session, not an API key');
  return { organizationId: tenant.organizationId, userId: tenant.userId, role: tenant.role };
}
