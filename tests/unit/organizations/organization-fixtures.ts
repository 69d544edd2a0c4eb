import type { MemberRole } from '../../../core/domain/roles.ts';
import { RegisterUser } from '../../../core/use-cases/auth/register-user.ts';
import type { TestCore } from '../../support/build-core.ts';

export interface MemberScope {
  organizationId: string;
  userId: string;
  role: MemberRole;
}

/** Registers `email` with a new organization it owns; returns the owner's scope. */
export async function registerOwner(core: TestCore, email: string, organizationName = 'Kente Ltd'): Promise<MemberScope> {
  const result = await new RegisterUser(core).execute({ email, password: 'correct-horse-battery', firstName: 'Ama', lastName: 'Mensah', organizationName });
  const organization = result.organizations[0];
  if (!organization) throw new Error('registration created no organization');
  return { organizationId: organization.id, userId: result.user.id, role: 'TENANT_OWNER' };
}

/** Registers a user without an organization; returns the user id. */
export async function registerPerson(core: TestCore, email: string, firstName = 'Kofi'): Promise<string> {
  const result = await new RegisterUser(core).execute({ email, password: 'correct-horse-battery', firstName, lastName: 'Boateng' });
  return result.user.id;
}

/** Registers a user and adds them to the organization with `role`; returns their scope. */
export async function addMember(core: TestCore, organizationId: string, email: string, role: MemberRole): Promise<MemberScope> {
  const userId = await registerPerson(core, email);
  await core.storage.memberships.insert({ id: core.ids.next(), organizationId, userId, role, createdAt: core.clock.now() });
  return { organizationId, userId, role };
}
