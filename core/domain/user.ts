import type { PlatformRole } from './roles.ts';

export interface User {
  id: string;
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  platformRole: PlatformRole | null;
  createdAt: Date;
}

/** The user as the API shows it: never the password hash. */
export interface UserProfile {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  platformRole: PlatformRole | null;
  createdAt: string;
}

export function toUserProfile(user: User): UserProfile {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    platformRole: user.platformRole,
    createdAt: user.createdAt.toISOString(),
  };
}
