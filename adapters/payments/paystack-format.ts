import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../core/errors.ts';
import type { GatewayConfirmation } from '../../core/domain/payment.ts';
import type { GatewayEvent } from '../../core/ports/payment-gateway.ts';

/**
 * Paystack's wire format, shared by the Paystack adapter and the built-in sandbox (which speaks the
 * same format so that both drive one webhook path): HMAC-SHA512 signatures, transaction objects.
 */

/** Lowercase hex HMAC-SHA512 of the exact body bytes. */
export function hmacSha512Hex(key: string | Buffer, body: Buffer): string {
  return createHmac('sha512', key).update(body).digest('hex');
}

/**
 * Checks a hex HMAC-SHA512 signature over the raw body in constant time. Missing, empty, non-hex or
 * wrong-length signatures are refused before comparing (their length says nothing about the key).
 */
export function verifyHmacSha512(key: string | Buffer, body: Buffer, signature: string | undefined): void {
  const given = signature?.trim().toLowerCase() ?? '';
  if (!/^[0-9a-f]{128}$/.test(given)) throw new AppError('INVALID_SIGNATURE', 'Missing or malformed gateway signature');
  const expected = Buffer.from(hmacSha512Hex(key, body), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(given, 'hex'))) throw new AppError('INVALID_SIGNATURE', 'Gateway signature does not match the body');
}

const SUCCESS = new Set(['success']);
const FAILED = new Set(['failed', 'abandoned', 'reversed', 'cancelled']);

/** A Paystack transaction object (verify `data`, webhook `data`) as our confirmation; amounts are already pesewas. */
export function confirmationFrom(data: unknown, fallbackReference: string | null = null): GatewayConfirmation {
  const d = asRecord(data);
  const status = typeof d['status'] === 'string' ? d['status'].toLowerCase() : 'unknown';
  const amount = typeof d['amount'] === 'number' && Number.isSafeInteger(d['amount']) ? d['amount'] : null;
  const reference = typeof d['reference'] === 'string' ? d['reference'] : fallbackReference;
  if (!reference) throw new AppError('VALIDATION_ERROR', 'Gateway transaction without a reference');
  return {
    reference, gatewayStatus: status, amount,
    outcome: SUCCESS.has(status) ? 'success' : FAILED.has(status) ? 'failed' : 'pending',
    currency: typeof d['currency'] === 'string' ? d['currency'] : null,
  };
}

/** Reads a verified webhook body: `{ event, data }`. Only charge.success yields a confirmation. */
export function readEvent(rawBody: Buffer): GatewayEvent {
  let parsed: unknown;
  try { parsed = JSON.parse(rawBody.toString('utf8')); } catch { throw new AppError('VALIDATION_ERROR', 'Gateway event body is not JSON'); }
  const body = asRecord(parsed);
  const event = typeof body['event'] === 'string' ? body['event'].slice(0, 100) : null;
  if (!event) throw new AppError('VALIDATION_ERROR', 'Gateway event without an event name');
  return { event, confirmation: event === 'charge.success' ? confirmationFrom(body['data']) : null };
}

export function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
