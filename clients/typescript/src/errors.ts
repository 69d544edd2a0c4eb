import type { ErrorDetails } from './types.js';

/**
 * The one error type of the client: an API error (`status` is the HTTP status, `code` the spec's
 * error code such as VALIDATION_ERROR or INSUFFICIENT_BALANCE), or a failure before any answer
 * (`status` 0; code NETWORK_ERROR, TIMEOUT, or VALIDATION_ERROR for input refused by the client).
 * A fraud-REJECTED send is not an error: it is a delivery log with status REJECTED.
 */
export class NkraError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details: ErrorDetails;
  /** The X-Request-Id of the failed request, for support. */
  readonly requestId: string | null;
  /** The answer's Retry-After in milliseconds (429 VERIFY_RATE_LIMITED, VERIFY_RESEND_COOLDOWN, 503 ...), null when absent. */
  readonly retryAfterMs: number | null;

  constructor(code: string, message: string, options: { status?: number; details?: ErrorDetails; requestId?: string | null; retryAfterMs?: number | null; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'NkraError';
    this.code = code;
    this.status = options.status ?? 0;
    this.details = options.details ?? {};
    this.requestId = options.requestId ?? null;
    this.retryAfterMs = options.retryAfterMs ?? null;
  }

  get fieldErrors(): Record<string, string[]> {
    return this.details.fieldErrors ?? {};
  }

  get formErrors(): string[] {
    return this.details.formErrors ?? [];
  }
}

export function isNkraError(error: unknown): error is NkraError {
  return error instanceof NkraError;
}
