import { ipRateKey, normalizeIpAddress } from '../../domain/ip-address.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Secrets } from '../../ports/secrets.ts';
import type { Storage } from '../../ports/storage.ts';

/** Login throttles and known login clients, shared by LogIn, RegisterUser and ResetPassword (docs/permissions.md, "Login throttling"). */

/** The window of every login throttle. */
export const LOGIN_WINDOW_SECONDS = 15 * 60;

/** The throttle keys of a login attempt; a completed password reset clears the account's (reset-password.ts). */
export const loginThrottleKeys = {
  account: (email: string) => `login:fail:email:${email}`,
  pair: (email: string, clientIp: string) => `login:fail:pair:${email}:${clientKey(clientIp)}`,
  ip: (clientIp: string) => `login:fail:ip:${clientKey(clientIp)}`,
  device: (deviceHash: string) => `login:fail:device:${deviceHash}`,
};

/** One spelling per client: IPv4 itself, IPv6 its /64 (addresses rotated inside one network count once). */
export function clientKey(clientIp: string): string {
  const ip = normalizeIpAddress(clientIp);
  return ip ? ipRateKey(ip) : clientIp;
}

/** What is stored of a device token and of a client address: digests, never the values. */
export const deviceDigest = (secrets: Secrets, deviceToken: string) => secrets.sha256(`login-device:${deviceToken}`);
export const addressDigest = (secrets: Secrets, clientIp: string) => secrets.sha256(`login-address:${clientKey(clientIp)}`);

/**
 * After a proof of control (a successful login or registration): the device (its token, new or presented)
 * and the client address become known, so they skip the account-wide throttle next time. Answers the device token.
 */
export async function rememberLoginClient(deps: { storage: Storage; secrets: Secrets; clock: Clock }, userId: string, clientIp: string, presented: string | null): Promise<string> {
  const deviceToken = presented ?? deps.secrets.randomToken(32);
  await deps.storage.knownLoginClients.remember(userId, [deviceDigest(deps.secrets, deviceToken), addressDigest(deps.secrets, clientIp)], deps.clock.now());
  return deviceToken;
}
