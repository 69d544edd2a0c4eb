/**
 * Which organizations require two-factor sign-in of their members (docs/security.md, "Two-factor sign-in").
 * Tenant data: every method but `requiredForUser` takes the organization id first.
 */
export interface TwoFactorPolicyRepository {
  setRequired(organizationId: string, required: boolean, at: Date): Promise<void>;
  isRequired(organizationId: string): Promise<boolean>;
  /** True when any organization the user is a member of requires two-factor. */
  requiredForUser(userId: string): Promise<boolean>;
}
