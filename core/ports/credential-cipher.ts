/** Encrypts secrets at rest (provider credentials, webhook secrets, passcode message text; AES-256-GCM with ENCRYPTION_KEY in production). */
export interface CredentialCipher {
  encrypt(plaintext: string): string;
  /** Throws when the ciphertext was tampered with or made with another key. */
  decrypt(ciphertext: string): string;
}
