/**
 * Devices and client addresses a user has logged in from with the correct password (docs/permissions.md,
 * "Login throttling"). Stored as keyed digests, never the device token or the address itself. A known
 * client skips the account-wide failure throttle, so attackers guessing from elsewhere cannot lock the
 * owner out. Global, not tenant data (users are not scoped to an organization).
 */
export interface KnownLoginClientRepository {
  /**
   * Records (or refreshes) the clients of a successful login. Idempotent. Keeps the KNOWN_LOGIN_CLIENTS_PER_USER
   * most recently seen clients of the user and forgets older ones (a script logging in without its device
   * token would otherwise add a row per login).
   */
  remember(userId: string, clientHashes: readonly string[], at: Date): Promise<void>;
  /** The given digests the user logged in from since `since` (an empty array when none). */
  findKnown(userId: string, clientHashes: readonly string[], since: Date): Promise<string[]>;
  /** Forgets every client of the user (a completed password reset: a stolen device stops being trusted). */
  forgetUser(userId: string): Promise<void>;
}

/** How many known clients (devices and addresses) a user keeps: the most recently seen. */
export const KNOWN_LOGIN_CLIENTS_PER_USER = 50;
