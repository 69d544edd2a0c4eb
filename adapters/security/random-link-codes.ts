import { randomBytes } from 'node:crypto';
import { LINK_CODE_LENGTH } from '../../core/domain/tracked-links.ts';
import type { LinkCodes } from '../../core/ports/link-codes.ts';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Base62 codes from node:crypto: each character takes one random byte below 248 (= 4 x 62, so every
 * character is equally likely); 12 characters carry 12 x log2(62) = 71.4 bits.
 */
export class RandomLinkCodes implements LinkCodes {
  next(): string {
    let code = '';
    while (code.length < LINK_CODE_LENGTH) {
      for (const byte of randomBytes(LINK_CODE_LENGTH * 2)) {
        if (byte < 248) code += ALPHABET[byte % 62];
        if (code.length === LINK_CODE_LENGTH) break;
      }
    }
    return code;
  }
}
