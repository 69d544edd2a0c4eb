import { randomUUID } from 'node:crypto';
import type { IdGenerator } from '../../core/ports/id-generator.ts';

/**
 * RFC 9562 UUIDv7, monotonic within the process: the 48-bit millisecond timestamp, then a 12-bit
 * counter of the ids made in that millisecond (RFC 9562 section 6.2, method 1; past 4,096 in one
 * millisecond the timestamp moves on by one), then 62 random bits. Every new id is greater than the
 * previous one, so rows written in id order land at the very end of their B-tree indexes, which
 * then split into full pages (an import batch's ids used to be in random order within a millisecond).
 * The random bits come from `randomUUID`, which draws from a buffered entropy pool: much cheaper per
 * id than `randomBytes(16)` when an import makes millions.
 */
export class UuidV7IdGenerator implements IdGenerator {
  #ms = 0;
  #counter = 0;

  next(): string {
    const now = Date.now();
    if (now > this.#ms) { this.#ms = now; this.#counter = 0; }
    else if (++this.#counter > 0xfff) { this.#ms += 1; this.#counter = 0; }
    const ms = this.#ms.toString(16).padStart(12, '0');
    // randomUUID(): xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx; its variant V and the 60 bits after it are v7's too.
    return `${ms.slice(0, 8)}-${ms.slice(8)}-7${this.#counter.toString(16).padStart(3, '0')}${randomUUID().slice(18)}`;
  }
}
