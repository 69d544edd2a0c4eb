/** The connection settings an OpenID provider call needs (the client secret in clear, only in memory). */
export interface OpenIdClientSettings {
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
  scopes: readonly string[];
}

/** What the browser was sent away with; kept by the browser only sealed (docs/security.md). */
export interface OpenIdChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
  redirectUri: string;
}

/** The identity the provider vouched for, from the validated ID token (and UserInfo when it lacks the email). */
export interface OpenIdIdentity {
  subject: string;
  email: string | null;
  emailVerified: boolean | null;
  givenName: string | null;
  familyName: string | null;
}

/**
 * An organization's OpenID Connect provider, reached through the egress policy (the issuer URL is
 * tenant-configured) with a timeout on every call: discovery, token exchange, UserInfo. Authorization
 * code flow with PKCE (S256), state and nonce.
 * Errors: AppError SSO_PROVIDER_UNAVAILABLE (unreachable, timed out, refused by the egress policy, bad
 * discovery document; `details.reason`), SSO_LOGIN_FAILED (the provider answered an error or refused the
 * code), SSO_STATE_MISMATCH (the ID token's nonce is not the expected one).
 */
export interface OpenIdProvider {
  /** The provider's authorization URL to send the browser to. */
  authorizationUrl(settings: OpenIdClientSettings, checks: OpenIdChecks): Promise<string>;
  /** Validates the callback (its full URL as the browser got it) and exchanges the code; returns the identity. */
  completeLogin(settings: OpenIdClientSettings, callbackUrl: string, checks: OpenIdChecks): Promise<OpenIdIdentity>;
}
