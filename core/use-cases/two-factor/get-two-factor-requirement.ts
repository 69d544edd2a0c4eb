import type { Storage } from '../../ports/storage.ts';

/** Whether the organization requires two-factor of its members (organization:read). */
export class GetTwoFactorRequirement {
  readonly #deps: { storage: Storage };
  constructor(deps: { storage: Storage }) { this.#deps = deps; }

  async execute(organizationId: string) {
    return { required: await this.#deps.storage.twoFactorPolicies.isRequired(organizationId) };
  }
}
