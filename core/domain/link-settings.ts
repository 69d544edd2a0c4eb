/**
 * An organization's tracked-link settings (docs/links.md). Absent row: the defaults (`defaultLinkSettings`).
 */
export interface LinkSettings {
  organizationId: string;
  /** Replace URLs of SMS, WhatsApp and email bodies by tracked short links. Default true. */
  trackLinks: boolean;
  /** Add a 1x1 open-tracking pixel to emails. Default false (unreliable: docs/links.md). */
  trackEmailOpens: boolean;
  /** Templates whose messages are never tracked (per-template opt-out), at most MAX_UNTRACKED_TEMPLATES. */
  untrackedTemplateIds: string[];
  /** The organization's own link host (e.g. go.acme.com.gh), or null. */
  customDomain: string | null;
  /** The value the TXT record `_nkra-links.<customDomain>` must hold. */
  domainToken: string | null;
  /** When the TXT record was last found; the domain is used for new links only when set. */
  domainVerifiedAt: Date | null;
  updatedAt: Date;
}

export const MAX_UNTRACKED_TEMPLATES = 500;

export function defaultLinkSettings(organizationId: string, now: Date): LinkSettings {
  return { organizationId, trackLinks: true, trackEmailOpens: false, untrackedTemplateIds: [], customDomain: null, domainToken: null, domainVerifiedAt: null, updatedAt: now };
}

/** The DNS name that must carry the TXT record proving a custom link domain. */
export function linkDomainRecordName(domain: string): string {
  return `_nkra-links.${domain}`;
}

/** The TXT record's value. */
export function linkDomainRecordValue(token: string): string {
  return `nkra-links-verification=${token}`;
}

/** The settings as the API shows them (docs/links.md). */
export function linkSettingsView(s: LinkSettings, platformBase: string) {
  const verified = s.customDomain !== null && s.domainVerifiedAt !== null;
  return {
    trackLinks: s.trackLinks, trackEmailOpens: s.trackEmailOpens, untrackedTemplateIds: s.untrackedTemplateIds,
    customDomain: s.customDomain === null ? null : {
      domain: s.customDomain, verified, verifiedAt: s.domainVerifiedAt?.toISOString() ?? null,
      recordName: linkDomainRecordName(s.customDomain), recordValue: s.domainToken ? linkDomainRecordValue(s.domainToken) : null,
    },
    linkBase: verified ? `https://${s.customDomain}/l` : platformBase,
  };
}
