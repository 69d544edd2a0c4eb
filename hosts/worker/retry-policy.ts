import type { ErrorCode } from '../../core/errors.ts';

/**
 * What the worker does when a job fails with an AppError: `retry` (pg-boss retries with exponential
 * backoff up to the queue's retry limit) or `fail` (permanent: retrying cannot help). Errors that are
 * not AppErrors, and AppErrors marked `retryable`, are retried. docs/errors.md lists the same table.
 */
export const WORKER_POLICY_BY_CODE: Record<ErrorCode, 'retry' | 'fail'> = {
  VALIDATION_ERROR: 'fail',
  MALFORMED_JSON: 'fail',
  EMAIL_REQUIRED: 'fail',
  NAME_REQUIRED: 'fail',
  URL_REQUIRED: 'fail',
  INVALID_AMOUNT: 'fail',
  NOT_IMPERSONATING: 'fail',
  WEAK_PASSWORD: 'fail',
  INVALID_RESET_TOKEN: 'fail',
  ORGANIZATION_REQUIRED: 'fail',
  INVALID_CREDENTIALS: 'fail',
  INVALID_SIGNATURE: 'fail',
  UNAUTHORIZED: 'fail',
  INSUFFICIENT_BALANCE: 'fail',
  FORBIDDEN: 'fail',
  USER_NOT_FOUND: 'fail',
  NOT_FOUND: 'fail',
  METHOD_NOT_ALLOWED: 'fail',
  EMAIL_EXISTS: 'fail',
  SLUG_EXISTS: 'fail',
  CONFLICT: 'fail',
  PAYLOAD_TOO_LARGE: 'fail',
  UNSUPPORTED_MEDIA_TYPE: 'fail',
  IDEMPOTENCY_KEY_REUSED: 'fail',
  TEMPLATE_NOT_APPROVED: 'fail',
  RATE_LIMITED: 'retry',
  PROVIDER_UNAVAILABLE: 'retry',
  INTERNAL_ERROR: 'retry',
  SERVICE_UNAVAILABLE: 'retry',
  PAYMENT_FAILED: 'fail',
  PAYMENT_PENDING: 'retry',
  EVENT_INACTIVE: 'fail',
  RECIPIENT_UNREACHABLE: 'fail',
  CAMPAIGN_NOT_APPROVED: 'fail',
  CAMPAIGN_OVER_NEW_TENANT_CAP: 'fail',
  SENDER_ID_NOT_APPROVED: 'fail',
  SENDER_ID_EXISTS: 'fail',
  LIMIT_REACHED: 'fail',
  VENDOR_NOT_SUPPORTED: 'fail',
};
