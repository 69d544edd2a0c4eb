import { generateSecret, generateURI, verify } from 'otplib';
import type { TotpAuthenticator } from '../../core/ports/totp-authenticator.ts';

/** RFC 6238 on otplib (SHA-1, 6 digits, 30 s steps, one step of drift either side). */
export class OtplibTotpAuthenticator implements TotpAuthenticator {
  newSecret(): string {
    return generateSecret({ length: 20 });
  }

  uri(secret: string, accountName: string, issuer: string): string {
    return generateURI({ issuer, label: accountName, secret });
  }

  async verify(secret: string, code: string, at: Date, afterStep: number | null): Promise<number | null> {
    try {
      const result = await verify({
        secret, token: code, epoch: Math.floor(at.getTime() / 1000), epochTolerance: 30,
        ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
      });
      return result.valid && 'timeStep' in result ? result.timeStep : null;
    } catch {
      return null; // a malformed token or secret is a wrong code, never a 500
    }
  }
}
