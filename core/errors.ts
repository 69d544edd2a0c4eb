/**
 * The closed set of error codes the core (and the hosts) can raise. Every code is documented in
 * docs/errors.md with its HTTP status (hosts/api/http-error-map.ts) and its worker retry policy
 * (hosts/worker/retry-policy.ts); a test checks that both maps cover every code.
 */
export const ERROR_CODES = [
  'VALIDATION_ERROR',
  'MALFORMED_JSON',
  'EMAIL_REQUIRED',
  'NAME_REQUIRED',
  'URL_REQUIRED',
  'INVALID_AMOUNT',
  'NOT_IMPERSONATING',
  'WEAK_PASSWORD',
  'INVALID_RESET_TOKEN',
  'ORGANIZATION_REQUIRED',
  'INVALID_CREDENTIALS',
  'INVALID_SECOND_FACTOR',
  'INVALID_CHALLENGE_TOKEN',
  'TWO_FACTOR_ENROLMENT_REQUIRED',
  'INVALID_SIGNATURE',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'API_KEY_ADDRESS_NOT_ALLOWED',
  'INSUFFICIENT_BALANCE',
  'USER_NOT_FOUND',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'EMAIL_EXISTS',
  'SLUG_EXISTS',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'IDEMPOTENCY_KEY_REUSED',
  'TEMPLATE_NOT_APPROVED',
  'RATE_LIMITED',
  'PROVIDER_UNAVAILABLE',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
  'PAYMENT_FAILED',
  'PAYMENT_PENDING',
  'EVENT_INACTIVE',
  'RECIPIENT_UNREACHABLE',
  'CAMPAIGN_NOT_APPROVED',
  'CAMPAIGN_OVER_NEW_TENANT_CAP',
  'SENDER_ID_NOT_APPROVED',
  'SENDER_ID_EXISTS',
  'LIMIT_REACHED',
  'VENDOR_NOT_SUPPORTED',
  'VERIFY_COUNTRY_NOT_ALLOWED',
  'VERIFY_RATE_LIMITED',
  'VERIFY_PREFIX_BLOCKED',
  'VERIFY_RESEND_COOLDOWN',
  'VERIFY_MAX_SENDS',
  'WHATSAPP_WINDOW_CLOSED',
  'WHATSAPP_TEMPLATE_NOT_APPROVED',
  'SSO_REQUIRED',
  'SSO_NOT_CONFIGURED',
  'SSO_STATE_MISMATCH',
  'SSO_DOMAIN_MISMATCH',
  'SSO_LOGIN_FAILED',
  'SSO_PROVIDER_UNAVAILABLE',
  'DOMAIN_TAKEN',
  'DOMAIN_NOT_VERIFIED',
  'LOOKUP_FAILED',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** Field-level and form-level messages, the shape of VALIDATION_ERROR details. */
export interface ValidationDetails {
  fieldErrors: Record<string, string[]>;
  formErrors: string[];
}

export type ErrorDetails = Record<string, unknown>;

/** The one error type the core throws. It carries a stable code, never an HTTP status. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails;
  /** Set by adapters for infrastructure failures a retry may cure (timeouts, 5xx). */
  readonly retryable: boolean;

  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}, options: { retryable?: boolean; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.details = details;
    this.retryable = options.retryable ?? false;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/** A VALIDATION_ERROR naming one field, for rules checked after schema parsing. */
export function fieldError(field: string, message: string): AppError {
  const details: ValidationDetails = { fieldErrors: { [field]: [message] }, formErrors: [] };
  return new AppError('VALIDATION_ERROR', message, { ...details });
}
