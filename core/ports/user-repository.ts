import type { User } from '../domain/user.ts';
import type { PlatformRole } from '../domain/roles.ts';

/**
 * Users are global (not tenant data): one account may belong to several organizations.
 * Emails are stored lowercased and unique; `insert` throws AppError CONFLICT on a duplicate.
 */
export interface UserRepository {
  insert(user: User): Promise<void>;
  findById(id: string): Promise<User | null>;
  findByEmail(email: string): Promise<User | null>;
  findManyByIds(ids: readonly string[]): Promise<User[]>;
  updatePassword(id: string, passwordHash: string): Promise<void>;
  setPlatformRole(id: string, role: PlatformRole | null): Promise<void>;
}
