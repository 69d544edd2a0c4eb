import type { IdGenerator } from '../../core/ports/id-generator.ts';
import type { Repositories, Storage } from '../../core/ports/storage.ts';
import { InMemoryApiKeyRepository } from './in-memory-api-key-repository.ts';
import { InMemoryJobQueue } from './in-memory-job-queue.ts';
import { InMemoryMembershipRepository } from './in-memory-membership-repository.ts';
import { InMemoryOrganizationRepository } from './in-memory-organization-repository.ts';
import { InMemoryPasswordResetRepository } from './in-memory-password-reset-repository.ts';
import { InMemoryUserRepository } from './in-memory-user-repository.ts';
import { InMemoryWalletRepository } from './in-memory-wallet-repository.ts';
import { MemoryState } from './memory-state.ts';

/**
 * Storage in process memory, for tests and for embedding teams' own tests. Transactions run one at a
 * time and roll back by restoring a snapshot taken when they began.
 */
export class InMemoryStorage implements Storage {
  readonly state = new MemoryState();
  readonly users; readonly organizations; readonly memberships; readonly wallets; readonly apiKeys; readonly passwordResets;
  readonly jobs: InMemoryJobQueue;
  #tail: Promise<unknown> = Promise.resolve();

  constructor(ids: IdGenerator) {
    this.users = new InMemoryUserRepository(this.state);
    this.organizations = new InMemoryOrganizationRepository(this.state);
    this.memberships = new InMemoryMembershipRepository(this.state);
    this.wallets = new InMemoryWalletRepository(this.state, ids);
    this.apiKeys = new InMemoryApiKeyRepository(this.state);
    this.passwordResets = new InMemoryPasswordResetRepository(this.state);
    this.jobs = new InMemoryJobQueue(this.state);
  }

  transaction<T>(work: (tx: Repositories) => Promise<T>): Promise<T> {
    const run = async () => {
      const before = this.state.snapshot();
      try {
        return await work(this);
      } catch (error) {
        this.state.restore(before);
        throw error;
      }
    };
    const result = this.#tail.then(run, run);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
