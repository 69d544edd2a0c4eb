import argon2 from 'argon2';
import type { PasswordHasher } from '../../core/ports/password-hasher.ts';

export interface Argon2Cost {
  memoryCostKiB: number;
  timeCost: number;
  parallelism: number;
}

/** OWASP's argon2id minimum (m=19 MiB, t=2, p=1); see docs/adr/0004-password-and-api-key-hashing.md. */
export const OWASP_MINIMUM: Argon2Cost = { memoryCostKiB: 19_456, timeCost: 2, parallelism: 1 };

export class Argon2PasswordHasher implements PasswordHasher {
  readonly #cost: Argon2Cost;
  constructor(cost: Argon2Cost = OWASP_MINIMUM) { this.#cost = cost; }

  hash(password: string): Promise<string> {
    return argon2.hash(password, {
      type: argon2.argon2id, memoryCost: this.#cost.memoryCostKiB, timeCost: this.#cost.timeCost, parallelism: this.#cost.parallelism,
    });
  }

  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  }
}
