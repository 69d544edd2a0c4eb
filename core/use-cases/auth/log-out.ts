import type { Storage } from '../../ports/storage.ts';

/**
 * POST /auth/logout: ends the current dashboard session. Its token is refused from now on, in every
 * API process (the revocation is stored; tokens are otherwise stateless). Other sessions of the user
 * (other browsers) stay signed in; a password reset ends them all.
 */
export class LogOut {
  readonly #deps: { storage: Pick<Storage, 'sessionRevocations'> };
  constructor(deps: { storage: Pick<Storage, 'sessionRevocations'> }) { this.#deps = deps; }

  async execute(session: { tokenId: string; expiresAt: Date }): Promise<{ loggedOut: true }> {
    if (session.tokenId) await this.#deps.storage.sessionRevocations.revokeToken(session.tokenId, session.expiresAt);
    return { loggedOut: true };
  }
}
