import type { Membership } from '../../domain/organization.ts';
import type { MemberRole } from '../../domain/roles.ts';
import type { User } from '../../domain/user.ts';
import type { Storage } from '../../ports/storage.ts';

/** Upper bound on members listed for one organization (current organization and member list). */
export const MAX_MEMBERS_LISTED = 200;

/** A member as the API shows it: the user's profile (`id` is the user id) plus the role. */
export interface MemberView {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  role: MemberRole;
  joinedAt: string;
}

export function memberView(membership: Membership, user: User): MemberView {
  return {
    id: user.id, email: user.email, firstName: user.firstName, lastName: user.lastName,
    role: membership.role, joinedAt: membership.createdAt.toISOString(),
  };
}

/** The members of one organization with their user profiles, oldest first, at most {@link MAX_MEMBERS_LISTED}. */
export async function loadMembers(storage: Storage, organizationId: string): Promise<MemberView[]> {
  const memberships = await storage.memberships.listByOrganization(organizationId, MAX_MEMBERS_LISTED);
  const users = new Map((await storage.users.findManyByIds(memberships.map((m) => m.userId))).map((u) => [u.id, u]));
  return memberships.flatMap((m) => {
    const user = users.get(m.userId);
    return user ? [memberView(m, user)] : [];
  });
}

/** GET /organizations/members: the caller's organization's members with their user profiles. */
export class ListMembers {
  readonly #deps: { storage: Storage };
  constructor(deps: { storage: Storage }) { this.#deps = deps; }

  async execute(scope: { organizationId: string; userId: string; role: MemberRole }): Promise<MemberView[]> {
    return loadMembers(this.#deps.storage, scope.organizationId);
  }
}
