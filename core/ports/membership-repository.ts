import type { Membership } from '../domain/organization.ts';

/**
 * Who belongs to which organization with which role. Tenant-scoped: every read takes the
 * organization id first. `insert` throws AppError CONFLICT when the user is already a member.
 */
export interface MembershipRepository {
  insert(membership: Membership): Promise<void>;
  find(organizationId: string, userId: string): Promise<Membership | null>;
  /** Members of one organization, oldest first, at most `limit`. */
  listByOrganization(organizationId: string, limit: number): Promise<Membership[]>;
  /** The organizations a user belongs to, at most `limit`. */
  listByUser(userId: string, limit: number): Promise<Membership[]>;
  countByOrganization(organizationId: string): Promise<number>;
}
