import { AppError } from '../../../core/errors.ts';

/**
 * Every query parameter of the API is a scalar: a repeated one (`?appId=a&appId=b`, which Koa parses into
 * an array) answers 400 VALIDATION_ERROR naming it, on every route and before authentication, instead of
 * reaching a handler or schema that expects a string (a 500 on GET /inbox/example, issue 28).
 */
export function refuseRepeatedQuery(query: Record<string, unknown>): void {
  const repeated = Object.entries(query).filter(([, value]) => Array.isArray(value)).map(([name]) => name);
  if (repeated.length === 0) return;
  const fieldErrors = Object.fromEntries(repeated.map((name) => [name, ['must be given once']]));
  throw new AppError('VALIDATION_ERROR', `Query parameter ${repeated.join(', ')} must be given once`, { fieldErrors, formErrors: [] });
}
