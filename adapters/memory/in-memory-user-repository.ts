import { AppError } from '../../core/errors.ts';
import type { PlatformRole } from '../../core/domain/roles.ts';
import type { User } from '../../core/domain/user.ts';
import type { UserRepository } from '../../core/ports/user-repository.ts';
import { copy, type MemoryState } from './memory-state.ts';

export class InMemoryUserRepository implements UserRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async insert(user: User): Promise<void> {
    const email = user.email.toLowerCase();
    if ([...this.#state.users.values()].some((u) => u.email === email)) throw new AppError('CONFLICT', 'email already registered');
    this.#state.users.set(user.id, copy({ ...user, email }));
  }

  async findById(id: string): Promise<User | null> {
    const user = this.#state.users.get(id);
    return user ? copy(user) : null;
  }

  async findByEmail(email: string): Promise<User | null> {
    const wanted = email.toLowerCase();
    const user = [...this.#state.users.values()].find((u) => u.email === wanted);
    return user ? copy(user) : null;
  }

  async findManyByIds(ids: readonly string[]): Promise<User[]> {
    return ids.flatMap((id) => { const u = this.#state.users.get(id); return u ? [copy(u)] : []; });
  }

  async updatePassword(id: string, passwordHash: string): Promise<void> {
    const user = this.#state.users.get(id);
    if (user) user.passwordHash = passwordHash;
  }

  async setPlatformRole(id: string, role: PlatformRole | null): Promise<void> {
    const user = this.#state.users.get(id);
    if (user) user.platformRole = role;
  }
}
