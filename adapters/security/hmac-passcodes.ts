import { createHmac, hash, randomInt, timingSafeEqual } from 'node:crypto';
import type { Passcodes } from '../../core/ports/passcodes.ts';

/**
 * Passcodes with `crypto.randomInt` (a CSPRNG, uniform per digit) and HMAC-SHA256 under a key derived
 * from the service's ENCRYPTION_KEY (its own purpose label, so the key is never reused as is).
 */
export class HmacPasscodes implements Passcodes {
  readonly #key: Buffer;
  constructor(secret: string) { this.#key = Buffer.from(hash('sha256', `nkra:verify-passcodes:${secret}`, 'hex'), 'hex'); }

  generate(length: number): string {
    let code = '';
    for (let i = 0; i < length; i++) code += String(randomInt(10));
    return code;
  }

  hash(verificationId: string, code: string): string {
    return createHmac('sha256', this.#key).update(`${verificationId}:${code}`).digest('hex');
  }

  matches(storedHash: string, verificationId: string, code: string): boolean {
    const expected = Buffer.from(storedHash, 'hex');
    const actual = Buffer.from(this.hash(verificationId, code), 'hex');
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }
}
