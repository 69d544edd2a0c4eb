import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { AppError } from '../../core/errors.ts';

/** Runs a write and turns a unique-key violation into AppError CONFLICT. */
export async function translateUniqueViolation<T>(what: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) throw new AppError('CONFLICT', `${what} already exists`, {}, { cause: error });
    throw error;
  }
}
