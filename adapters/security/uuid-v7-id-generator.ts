import { randomUUID } from 'node:crypto';
import type { IdGenerator } from '../../core/ports/id-generator.ts';

/**
 * RFC 9562 UUIDv7: time-ordered, so new rows land at the end of primary-key indexes. The 74 random
 * bits come from a random (v4) UUID, whose variant bits are v7's too: `randomUUID` draws from a
 * buffered entropy pool, much cheaper per id than `randomBytes(16)` (a bulk import makes millions).
 */
export class UuidV7IdGenerator implements IdGenerator {
  next(): string {
    const ms = Date.now().toString(16).padStart(12, '0');
    // randomUUID(): xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx; keep everything after the version digit.
    return `${ms.slice(0, 8)}-${ms.slice(8, 12)}-7${randomUUID().slice(15)}`;
  }
}
