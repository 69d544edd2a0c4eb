import type { QuietHours } from './send-window.ts';
import type { MemberRole } from './roles.ts';

export interface Organization {
  id: string;
  name: string;
  industry: string | null;
  businessPhone: string | null;
  businessEmail: string | null;
  timezone: string;
  defaultLanguage: string;
  website: string | null;
  onboardingComplete: boolean;
  complianceAcknowledged: boolean;
  monthlyVolume: number | null;
  preferredChannels: string[];
  /** Set by platform administrators; a paused tenant's sends are rejected. */
  paused: boolean;
  /** The approved sender ID SMS go out under when a send names none (docs/sender-ids.md); null: the provider's own. */
  defaultSenderId: string | null;
  /** No non-urgent message reaches recipients in these local hours; it is SCHEDULED for their end (docs/consent.md). */
  quietHours: QuietHours | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The organization fields a tenant may change (spec: Organization update). */
export type OrganizationChanges = Partial<Pick<Organization,
  'name' | 'industry' | 'businessPhone' | 'businessEmail' | 'timezone' | 'defaultLanguage' | 'website'
  | 'onboardingComplete' | 'complianceAcknowledged' | 'monthlyVolume' | 'preferredChannels' | 'defaultSenderId' | 'quietHours'>>;

export interface Membership {
  id: string;
  organizationId: string;
  userId: string;
  role: MemberRole;
  createdAt: Date;
}

export function newOrganization(id: string, name: string, now: Date): Organization {
  return {
    id, name, industry: null, businessPhone: null, businessEmail: null, timezone: 'Africa/Accra', defaultLanguage: 'en',
    website: null, onboardingComplete: false, complianceAcknowledged: false, monthlyVolume: null, preferredChannels: [],
    paused: false, defaultSenderId: null, quietHours: null, createdAt: now, updatedAt: now,
  };
}

export function organizationView(org: Organization) {
  return {
    id: org.id, name: org.name, industry: org.industry, businessPhone: org.businessPhone, businessEmail: org.businessEmail,
    timezone: org.timezone, defaultLanguage: org.defaultLanguage, website: org.website,
    onboardingComplete: org.onboardingComplete, complianceAcknowledged: org.complianceAcknowledged,
    monthlyVolume: org.monthlyVolume, preferredChannels: org.preferredChannels, paused: org.paused, defaultSenderId: org.defaultSenderId, quietHours: org.quietHours ?? null,
    createdAt: org.createdAt.toISOString(), updatedAt: org.updatedAt.toISOString(),
  };
}
