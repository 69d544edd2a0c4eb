import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { AppError } from '../../core/errors.ts';

/** Runs a write (ORM or raw `sqlRows`) and turns a unique-key violation into AppError CONFLICT. */
export async function translateUniqueViolation<T>(what: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', `${what} already exists`, {}, { cause: error });
    throw error;
  }
}

/** A unique-key violation, as the ORM reports it or as the driver raised it (SQLSTATE 23505, from raw `sqlRows`). */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof UniqueConstraintViolationException || (error as { code?: unknown } | null)?.code === '23505';
}
