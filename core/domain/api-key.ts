import { normalizeIpAddress } from './ip-address.ts';
import { addressInRanges } from './ip-range.ts';

/**
 * API keys: `nk_test_...` (sandbox) or `nk_live_...`, followed by a long random secret. Only the
 * SHA-256 hash of the whole key is stored; the first characters are kept as a displayable prefix.
 */
export interface ApiKey {
  id: string;
  organizationId: string;
  name: string;
  /** The first {@link API_KEY_PREFIX_LENGTH} characters of the key, for humans to recognise it. */
  prefix: string;
  keyHash: string;
  isSandbox: boolean;
  scopes: ApiKeyScope[];
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  /** The client address of that last recorded use (normalized), null before the first use. */
  lastUsedIp: string | null;
  /**
   * Client address ranges the key may be used from (canonical CIDR, core/domain/ip-range.ts); empty
   * means any address. At most MAX_ALLOWED_RANGES.
   */
  allowedCidrs: string[];
  createdByUserId: string;
  createdAt: Date;
}

export const API_KEY_PREFIX_LENGTH = 12;

/** A key's last use is written at most once per this interval (across processes: the write is conditional). */
export const API_KEY_TOUCH_INTERVAL_MS = 60_000;

/**
 * Every scope an API key can carry (`resource:action`). API keys are accepted on five routes only
 * (spec section 5); the other scopes exist for forward compatibility and are validated but grant
 * nothing beyond those routes.
 */
export const API_KEY_SCOPES = [
  'messages:send', 'messages:read', 'events:read', 'events:trigger', 'verify:send',
  'contacts:read', 'contacts:write', 'templates:read', 'delivery-logs:read',
] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** Scopes given to a key created without an explicit list: everything an API key can be used for. */
export const DEFAULT_API_KEY_SCOPES: ApiKeyScope[] = ['messages:send', 'messages:read', 'events:read', 'events:trigger'];

export function apiKeyText(isSandbox: boolean, secret: string): string {
  return `${isSandbox ? 'nk_test_' : 'nk_live_'}${secret}`;
}

export function looksLikeApiKey(text: string): boolean {
  return /^nk_(test|live)_[A-Za-z0-9_-]{20,200}$/.test(text);
}

/**
 * May the key be used from this client address? Any address when the key has no ranges; otherwise
 * only a parseable address inside one of them (an unknown address is refused).
 */
export function apiKeyAllowsAddress(key: Pick<ApiKey, 'allowedCidrs'>, clientIp: string | null): boolean {
  if (key.allowedCidrs.length === 0) return true;
  const normalized = clientIp === null ? null : normalizeIpAddress(clientIp);
  return normalized !== null && addressInRanges(normalized, key.allowedCidrs);
}

export type ApiKeyState = 'active' | 'revoked' | 'expired';

export function apiKeyState(key: ApiKey, now: Date): ApiKeyState {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'active';
}

export function apiKeyView(key: ApiKey, now: Date) {
  return {
    id: key.id, name: key.name, prefix: key.prefix, isSandbox: key.isSandbox, scopes: key.scopes,
    expiresAt: key.expiresAt?.toISOString() ?? null, revokedAt: key.revokedAt?.toISOString() ?? null,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null, lastUsedIp: key.lastUsedIp, allowedCidrs: key.allowedCidrs,
    state: apiKeyState(key, now), createdAt: key.createdAt.toISOString(),
  };
}
