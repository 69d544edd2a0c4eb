import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { fields, parseInput } from '../../validation.ts';
import type { Membership, Organization } from '../../domain/organization.ts';
import { canGrantRole, MEMBER_ROLES, roleAllows, type MemberRole } from '../../domain/roles.ts';
import type { User } from '../../domain/user.ts';
import type { Clock } from '../../ports/clock.ts';
import type { EmailSender, OutgoingEmail } from '../../ports/email-sender.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Storage } from '../../ports/storage.ts';
import { memberView, type MemberView } from './list-members.ts';

/** Spec "Organization invite": email (required) and role (default VIEWER). */
export const InviteMemberInput = v.object({
  email: fields.email(),
  role: v.optional(v.picklist(MEMBER_ROLES, `must be one of ${MEMBER_ROLES.join(', ')}`), 'VIEWER'),
});
export type InviteMemberInput = v.InferInput<typeof InviteMemberInput>;

export interface InviteMemberDeps {
  storage: Storage;
  email: EmailSender;
  ids: IdGenerator;
  clock: Clock;
  /** Told about a notification email that could not be sent; the invite stands regardless. */
  onEmailError?: (error: unknown) => void;
}

/**
 * POST /organizations/invite: adds an already registered user to the caller's organization with a
 * role, then emails them. Only roles holding `members:invite` may invite, and only roles that
 * `canGrantRole` allows them to grant (an admin cannot make an owner). Errors: VALIDATION_ERROR,
 * FORBIDDEN, NOT_FOUND (organization gone), USER_NOT_FOUND (the user must register first),
 * CONFLICT (already a member). A failed email does not fail the invite.
 */
export class InviteMember {
  readonly #deps: InviteMemberDeps;
  constructor(deps: InviteMemberDeps) { this.#deps = deps; }

  async execute(scope: { organizationId: string; userId: string; role: MemberRole }, raw: unknown): Promise<MemberView> {
    const input = parseInput(InviteMemberInput, raw);
    if (!roleAllows(scope.role, 'members:invite')) throw new AppError('FORBIDDEN', `Your role (${scope.role}) does not allow inviting members`);
    if (!canGrantRole(scope.role, input.role)) throw new AppError('FORBIDDEN', `Your role (${scope.role}) cannot grant the ${input.role} role`);
    const { storage, ids, clock } = this.#deps;

    const organization = await storage.organizations.findById(scope.organizationId);
    if (!organization) throw new AppError('NOT_FOUND', 'Organization not found');
    const user = await storage.users.findByEmail(input.email);
    if (!user) throw new AppError('USER_NOT_FOUND', 'No user is registered with this email; they must register before they can be invited');
    if (await storage.memberships.find(organization.id, user.id)) throw alreadyMember(user.email);

    const membership: Membership = { id: ids.next(), organizationId: organization.id, userId: user.id, role: input.role, createdAt: clock.now() };
    try {
      await storage.memberships.insert(membership);
    } catch (error) {
      if (error instanceof AppError && error.code === 'CONFLICT') throw alreadyMember(user.email);
      throw error;
    }

    const inviter = await storage.users.findById(scope.userId);
    try {
      await this.#deps.email.send(invitationEmail(organization, user, membership.role, inviter));
    } catch (error) {
      this.#deps.onEmailError?.(error);
    }
    return memberView(membership, user);
  }
}

function alreadyMember(email: string): AppError {
  return new AppError('CONFLICT', `${email} is already a member of this organization`);
}

function invitationEmail(organization: Organization, user: User, role: MemberRole, inviter: User | null): OutgoingEmail {
  const by = inviter ? ` by ${inviter.firstName} ${inviter.lastName} (${inviter.email})` : '';
  return {
    to: user.email,
    subject: `You have been added to ${organization.name.replace(/[\r\n]+/g, ' ')}`, // no header injection via the name
    text: `Hello ${user.firstName},\n\nYou have been added to the organization "${organization.name}"${by} with the role ${role}.\n`
      + 'Sign in with your existing account to start working in it.\n',
  };
}
