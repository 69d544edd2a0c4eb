import type { MemberRole } from '../../domain/roles.ts';
import type { Storage } from '../../ports/storage.ts';

/** Upper bound on organizations listed for one user. */
export const MAX_ORGANIZATIONS_PER_USER = 200;

export interface UserOrganization {
  id: string;
  name: string;
  role: MemberRole;
}

/** The organizations a user belongs to, with their role in each (shared by login and /auth/me). */
export async function listUserOrganizations(storage: Storage, userId: string): Promise<UserOrganization[]> {
  const memberships = await storage.memberships.listByUser(userId, MAX_ORGANIZATIONS_PER_USER);
  const organizations = await Promise.all(memberships.map((m) => storage.organizations.findById(m.organizationId)));
  return memberships.flatMap((m, i) => {
    const org = organizations[i];
    return org ? [{ id: org.id, name: org.name, role: m.role }] : [];
  });
}
