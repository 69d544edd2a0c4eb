import { ConfigError } from './config.ts';

/** Two-factor sign-in settings (docs/security.md, "Two-factor sign-in"; README). */
export interface TwoFactorConfig {
  /** WEBAUTHN_RP_ID: the relying party id passkeys are bound to (a host name, never an IP address). */
  rpId: string;
  /** WEBAUTHN_RP_NAME: the name authenticators show. */
  rpName: string;
  /** WEBAUTHN_ORIGINS: the origins the dashboard is served from (comma-separated). */
  origins: string[];
  /** TWO_FACTOR_CHALLENGE_TTL_SECONDS: how long the second step of a sign-in may take. */
  challengeTtlSeconds: number;
  /** TOTP issuer shown in authenticator apps (the RP name). */
  issuer: string;
  /** Platform administrators must use two-factor: always in production; TWO_FACTOR_REQUIRED_FOR_ADMINS=true elsewhere. */
  requiredForPlatformAdmins: boolean;
}

const LOOPBACK = new Set(['127.0.0.1', '[::1]', '::1']);

/**
 * Derives the settings from PUBLIC_URL unless set: the RP id is its host name, the origin its origin. Browsers refuse
 * an IP address as RP id, so a loopback PUBLIC_URL (development) uses `localhost`, and both origins are accepted.
 */
export function twoFactorConfig(env: Record<string, string | undefined>, publicUrl: string, nodeEnv: string): TwoFactorConfig {
  const url = new URL(publicUrl);
  const loopback = LOOPBACK.has(url.hostname);
  const localhostOrigin = `${url.protocol}//localhost${url.port ? `:${url.port}` : ''}`;
  const rpId = env['WEBAUTHN_RP_ID']?.trim() || (loopback ? 'localhost' : url.hostname);
  const origins = env['WEBAUTHN_ORIGINS']?.trim()
    ? env['WEBAUTHN_ORIGINS'].split(',').map((o) => o.trim().replace(/\/+$/, '')).filter(Boolean)
    : loopback ? [url.origin, localhostOrigin] : [url.origin];
  const ttl = env['TWO_FACTOR_CHALLENGE_TTL_SECONDS']?.trim() || '300';
  const problems = [
    !/^\d+$/.test(ttl) || Number(ttl) < 30 || Number(ttl) > 3600 ? 'TWO_FACTOR_CHALLENGE_TTL_SECONDS: must be a whole number from 30 to 3600' : null,
    /^[\d.]+$|:/.test(rpId) ? 'WEBAUTHN_RP_ID: must be a host name, not an IP address' : null,
    origins.some((o) => !/^https?:\/\/[^/\s]+$/.test(o)) ? 'WEBAUTHN_ORIGINS: must be comma-separated origins such as https://app.example.com' : null,
    env['TWO_FACTOR_REQUIRED_FOR_ADMINS'] === 'false' && nodeEnv === 'production' ? 'TWO_FACTOR_REQUIRED_FOR_ADMINS: platform administrators always need two-factor in production' : null,
  ].filter((p): p is string => p !== null);
  if (problems.length > 0) throw new ConfigError(problems);
  const rpName = env['WEBAUTHN_RP_NAME']?.trim() || 'Nkra';
  return {
    rpId, rpName, origins, issuer: rpName, challengeTtlSeconds: Number(ttl),
    requiredForPlatformAdmins: nodeEnv === 'production' || env['TWO_FACTOR_REQUIRED_FOR_ADMINS'] === 'true',
  };
}
