import type { Organization } from './organization.ts';

const HOUR_MS = 3_600_000;

/** The fraud limits that bound a new organization (see FraudLimits in the send path). */
export interface NewTenantLimits {
  newTenantDays: number;
  newTenantPerHour: number;
}

/** What the new-tenant cap lets an organization send now; null when it is not new (no cap). */
export interface NewTenantAllowance {
  perHour: number;
  sentThisHour: number;
  /** Messages it may still send in the current rolling hour. */
  remaining: number;
  /** When the organization stops being new and the cap no longer applies. */
  establishedAt: Date;
}

export function isNewOrganization(org: Organization, limits: NewTenantLimits, now: Date): boolean {
  return now.getTime() - org.createdAt.getTime() < limits.newTenantDays * 24 * HOUR_MS;
}

/** The allowance of an organization that sent `sentThisHour` messages (REJECTED excluded) in the last hour. */
export function newTenantAllowance(org: Organization, limits: NewTenantLimits, sentThisHour: number, now: Date): NewTenantAllowance | null {
  if (!isNewOrganization(org, limits, now)) return null;
  return {
    perHour: limits.newTenantPerHour, sentThisHour, remaining: Math.max(0, limits.newTenantPerHour - sentThisHour),
    establishedAt: new Date(org.createdAt.getTime() + limits.newTenantDays * 24 * HOUR_MS),
  };
}
