import type Koa from 'koa';
import { AppError, isAppError, type ErrorCode } from '../../../core/errors.ts';
import { HTTP_STATUS_BY_CODE } from '../http-error-map.ts';

/** Turns every failure into `{ success: false, error: { code, message, details } }`. */
export function errorEnvelope(): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (caught) {
      const error = toAppError(caught);
      if (error.code === 'INTERNAL_ERROR') {
        ctx.state['log']?.error({ err: caught }, 'unexpected error');
      }
      ctx.status = HTTP_STATUS_BY_CODE[error.code];
      if (HTTP_STATUS_BY_CODE[error.code] === 429 && typeof error.details['retryAfterSeconds'] === 'number') {
        ctx.set('Retry-After', String(error.details['retryAfterSeconds']));
      }
      if (error.code === 'METHOD_NOT_ALLOWED' && Array.isArray(error.details['allow'])) {
        ctx.set('Allow', (error.details['allow'] as string[]).join(', '));
      }
      ctx.body = { success: false, error: { code: error.code, message: error.message, details: error.details } };
    }
  };
}

/** Body-parser and other HTTP-layer errors carry a status; map the ones clients can cause. */
function toAppError(caught: unknown): AppError {
  if (isAppError(caught)) return caught;
  const status = typeof caught === 'object' && caught !== null ? Number((caught as { status?: unknown }).status ?? (caught as { statusCode?: unknown }).statusCode) : NaN;
  const byStatus: Partial<Record<number, [ErrorCode, string]>> = {
    400: ['MALFORMED_JSON', 'Request body is not valid JSON'],
    413: ['PAYLOAD_TOO_LARGE', 'Request body is too large'],
    415: ['UNSUPPORTED_MEDIA_TYPE', 'Unsupported content type'],
  };
  const mapped = byStatus[status];
  if (mapped) return new AppError(mapped[0], mapped[1]);
  return new AppError('INTERNAL_ERROR', 'An unexpected error occurred');
}
