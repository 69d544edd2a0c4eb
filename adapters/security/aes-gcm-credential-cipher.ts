import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { CredentialCipher } from '../../core/ports/credential-cipher.ts';

const VERSION = 'v1';

/** AES-256-GCM; output `v1.<iv>.<tag>.<ciphertext>` in base64url. The key is ENCRYPTION_KEY (32 bytes hex). */
export class AesGcmCredentialCipher implements CredentialCipher {
  readonly #key: Buffer;
  constructor(keyHex: string) {
    const key = Buffer.from(keyHex, 'hex');
    if (key.length !== 32) throw new Error('encryption key must be 32 bytes (64 hex characters)');
    this.#key = key;
  }

  encrypt(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
  }

  decrypt(ciphertext: string): string {
    const [version, iv, tag, data] = ciphertext.split('.');
    if (version !== VERSION || !iv || !tag || data === undefined) throw new Error('unreadable credential ciphertext');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}
