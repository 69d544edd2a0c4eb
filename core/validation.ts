import * as v from 'valibot';
import { AppError, type ValidationDetails } from './errors.ts';

/**
 * Parses untrusted input with a valibot schema. Unknown keys are dropped by `v.object` (never
 * mass-assigned); failures become VALIDATION_ERROR with `{ fieldErrors, formErrors }` keyed by the
 * top-level field name; an error inside a nested field starts with its path (`windows[3].opensAt: ...`).
 */
export function parseInput<const TSchema extends v.GenericSchema>(schema: TSchema, input: unknown): v.InferOutput<TSchema> {
  if (Array.isArray(input)) {
    throw new AppError('VALIDATION_ERROR', 'Request body must be a JSON object', { fieldErrors: {}, formErrors: ['Request body must be a JSON object'] });
  }
  const result = v.safeParse(schema, input ?? {});
  if (result.success) return result.output;
  throw validationError(result.issues);
}

export function validationError(issues: readonly v.BaseIssue<unknown>[]): AppError {
  const details = toValidationDetails(issues);
  const first = Object.entries(details.fieldErrors)[0];
  const message = first ? `${first[0]}: ${first[1][0] ?? 'is invalid'}` : (details.formErrors[0] ?? 'Invalid request');
  return new AppError('VALIDATION_ERROR', message, { ...details });
}

/** Where an issue is, after `prefix`: 'windows[3].opensAt', or with prefix 'rules', 'rules.all[1].op'. */
export function issuePath(issue: v.BaseIssue<unknown>, prefix = ''): string {
  let out = prefix;
  for (const item of issue.path ?? []) out += typeof item.key === 'number' ? `[${item.key}]` : `${out === '' ? '' : '.'}${String(item.key)}`;
  return out;
}

export function toValidationDetails(issues: readonly v.BaseIssue<unknown>[]): ValidationDetails {
  const fieldErrors: Record<string, string[]> = {};
  const formErrors: string[] = [];
  for (const issue of issues) {
    const key = issue.path?.[0]?.key;
    if (typeof key === 'string' || typeof key === 'number') {
      // A missing key reads "Invalid key: Expected ..." in valibot; say it plainly.
      const missing = issue.input === undefined && issue.message.startsWith('Invalid key');
      const message = missing ? 'is required' : issue.message;
      // Inside a nested field, name the item: "windows[3].opensAt: must be a time HH:MM".
      (fieldErrors[String(key)] ??= []).push(issue.path!.length > 1 ? `${issuePath(issue)}: ${message}` : message);
    } else {
      formErrors.push(issue.message);
    }
  }
  return { fieldErrors, formErrors };
}

/** Reusable field schemas with messages meant for API users. */
export const fields = {
  email: () => v.pipe(v.string('must be a string'), v.trim(), v.toLowerCase(), v.maxLength(254, 'must be at most 254 characters'), v.email('must be a valid email address')),
  requiredText: (max = 200) => v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'is required'), v.maxLength(max, `must be at most ${max} characters`)),
  optionalText: (max = 200) => v.optional(v.pipe(v.string('must be a string'), v.trim(), v.maxLength(max, `must be at most ${max} characters`))),
  id: () => v.pipe(v.string('must be a string'), v.minLength(1, 'is required'), v.maxLength(64, 'is too long')),
};
