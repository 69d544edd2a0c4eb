import type { Organization, OrganizationChanges } from '../domain/organization.ts';

/** Organizations (tenants). Reads are by id only; listing all tenants is an admin concern. */
export interface OrganizationRepository {
  insert(organization: Organization): Promise<void>;
  findById(id: string): Promise<Organization | null>;
  /** The organizations of these ids that exist, in no particular order (one lookup for a group-committed batch). */
  findManyByIds(ids: readonly string[]): Promise<Organization[]>;
  /** Applies the changes and returns the updated organization, or null when it does not exist. */
  update(id: string, changes: OrganizationChanges, now: Date): Promise<Organization | null>;
  /** Pauses or resumes a tenant (platform administrators); null when it does not exist. */
  setPaused(id: string, paused: boolean, now: Date): Promise<Organization | null>;
}
