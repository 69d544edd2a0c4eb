import type { MemberRole } from './roles.ts';

/**
 * An organization's OpenID Connect connection (docs/security.md, "Single sign-on"). The client secret
 * is kept only sealed (CredentialCipher); it is never shown again after saving.
 */
export interface SsoConnection {
  organizationId: string;
  issuerUrl: string;
  clientId: string;
  clientSecretCiphertext: string;
  /** Optional short name members type on the sign-in page instead of their email; unique across organizations. */
  slug: string | null;
  /** Space-free scope names; always includes `openid` and `email`. */
  scopes: string[];
  /** The role a member created just in time gets (never TENANT_OWNER). */
  defaultRole: MemberRole;
  /** Members whose email domain is one of the organization's verified domains may not sign in with a password. */
  ssoOnly: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** An email domain an organization claims; verified once its DNS TXT record carries the token. */
export interface SsoDomain {
  id: string;
  organizationId: string;
  /** Lowercase, no trailing dot. */
  domain: string;
  token: string;
  verifiedAt: Date | null;
  createdAt: Date;
}

/** Roles a just-in-time member may get: every role but the owner's. */
export const JIT_ROLES = ['TENANT_ADMIN', 'CAMPAIGN_MANAGER', 'COMPLIANCE_REVIEWER', 'DEVELOPER', 'VIEWER'] as const satisfies readonly MemberRole[];

/** Domains an organization may claim. */
export const MAX_SSO_DOMAINS = 20;

/** The DNS name that must carry the TXT record. */
export function verificationRecordName(domain: string): string {
  return `_nkra-verification.${domain}`;
}

/** The TXT record's value. */
export function verificationRecordValue(token: string): string {
  return `nkra-verification=${token}`;
}

/** The lowercased domain of an email address ('' when it has none). */
export function emailDomain(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0 ? '' : email.slice(at + 1).trim().toLowerCase().replace(/\.$/, '');
}

/** Normalizes a claimed domain ('Example.COM.' -> 'example.com'); null when it is not a registrable-looking host name. */
export function normalizeDomain(raw: string): string | null {
  const domain = raw.trim().toLowerCase().replace(/\.$/, '');
  if (domain.length > 253 || !domain.includes('.')) return null;
  const label = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
  const labels = domain.split('.');
  if (!labels.every((l) => label.test(l)) || /^\d+$/.test(labels[labels.length - 1]!)) return null;
  return domain;
}

export function ssoDomainView(d: SsoDomain) {
  return {
    id: d.id, domain: d.domain, verified: d.verifiedAt !== null, verifiedAt: d.verifiedAt?.toISOString() ?? null,
    txtRecord: { name: verificationRecordName(d.domain), value: verificationRecordValue(d.token) }, createdAt: d.createdAt.toISOString(),
  };
}

/** The connection as owners see it: never the client secret, only that one is set. */
export function ssoConnectionView(c: SsoConnection) {
  return {
    issuerUrl: c.issuerUrl, clientId: c.clientId, clientSecretSet: true, slug: c.slug, scopes: c.scopes,
    defaultRole: c.defaultRole, ssoOnly: c.ssoOnly, createdAt: c.createdAt.toISOString(), updatedAt: c.updatedAt.toISOString(),
  };
}

/** Where identity providers send the browser back: the dashboard's callback page. */
export function ssoRedirectUri(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/sso/callback`;
}
