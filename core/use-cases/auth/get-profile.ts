import { AppError } from '../../errors.ts';
import { toUserProfile } from '../../domain/user.ts';
import type { Storage } from '../../ports/storage.ts';
import { listUserOrganizations } from './list-user-organizations.ts';

/** The signed-in user's profile with organization memberships (GET /auth/me). */
export class GetProfile {
  readonly #deps: { storage: Storage };
  constructor(deps: { storage: Storage }) { this.#deps = deps; }

  async execute(userId: string, impersonatorId: string | null = null) {
    const user = await this.#deps.storage.users.findById(userId);
    if (!user) throw new AppError('UNAUTHORIZED', 'Session user no longer exists');
    return { ...toUserProfile(user), impersonatorId, organizations: await listUserOrganizations(this.#deps.storage, userId) };
  }
}
