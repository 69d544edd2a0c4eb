import * as v from 'valibot';
import { fieldError } from '../../errors.ts';
import { fields, parseInput } from '../../validation.ts';
import { passwordWeakness } from '../../domain/password-policy.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { PasswordHasher } from '../../ports/password-hasher.ts';
import type { Storage } from '../../ports/storage.ts';

export const CreatePlatformAdminInput = v.object({
  email: fields.email(),
  /** Required when the account does not exist yet; ignored when promoting an existing user. */
  password: v.optional(v.string()),
  firstName: v.optional(fields.requiredText(100), 'Platform'),
  lastName: v.optional(fields.requiredText(100), 'Administrator'),
});

/**
 * Makes a PLATFORM_SUPER_ADMIN: promotes an existing account, or creates one. Used by the
 * `npm run admin:create` command and the ADMIN_EMAIL/ADMIN_PASSWORD bootstrap at start; never by HTTP.
 */
export class CreatePlatformAdmin {
  readonly #deps: { storage: Storage; passwords: PasswordHasher; ids: IdGenerator; clock: Clock };
  constructor(deps: { storage: Storage; passwords: PasswordHasher; ids: IdGenerator; clock: Clock }) { this.#deps = deps; }

  async execute(raw: unknown): Promise<{ userId: string; created: boolean }> {
    const input = parseInput(CreatePlatformAdminInput, raw);
    const { storage, passwords, ids, clock } = this.#deps;
    const existing = await storage.users.findByEmail(input.email);
    if (existing) {
      await storage.users.setPlatformRole(existing.id, 'PLATFORM_SUPER_ADMIN');
      return { userId: existing.id, created: false };
    }
    if (!input.password) throw fieldError('password', 'password is required to create a new administrator account');
    const weakness = passwordWeakness(input.password);
    if (weakness) throw fieldError('password', `password ${weakness}`);
    const id = ids.next();
    await storage.users.insert({
      id, email: input.email, passwordHash: await passwords.hash(input.password), firstName: input.firstName,
      lastName: input.lastName, platformRole: 'PLATFORM_SUPER_ADMIN', createdAt: clock.now(),
    });
    return { userId: id, created: true };
  }
}
