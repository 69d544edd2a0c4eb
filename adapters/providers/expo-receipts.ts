import type { DeliveryReport } from '../../core/ports/vendor-adapter.ts';
import { asRecord, asString, callVendor, isSuccess, vendorText } from './ghana-sms-http.ts';

/**
 * Ids per getReceipts request: expo-server-sdk's `pushNotificationReceiptChunkLimit` (300), what its
 * `chunkPushNotificationReceiptIds` uses; Expo's documentation allows up to 1,000, the SDK stays lower.
 */
export const EXPO_RECEIPT_CHUNK = 300;

/** Receipt errors (`details.error`) and our codes: DeviceNotRegistered means the token is dead (docs/contacts.md). */
const RECEIPT_ERRORS: Record<string, string> = {
  DeviceNotRegistered: 'UNREGISTERED',
  MessageTooBig: 'INVALID_REQUEST',
  MessageRateExceeded: 'RATE_LIMITED',
  InvalidCredentials: 'AUTH_FAILED',
  MismatchSenderId: 'AUTH_FAILED',
};

export interface ReceiptPoll { reports: DeliveryReport[]; failure: string | null }

/** The ids in request-sized chunks, in order (as the SDK's chunkPushNotificationReceiptIds does). */
export function chunkReceiptIds(ids: readonly string[], size = EXPO_RECEIPT_CHUNK): string[][] {
  const chunks: string[][] = [];
  for (let i = 0; i < ids.length; i += size) chunks.push(ids.slice(i, i + size));
  return chunks;
}

/**
 * One receipt in our terms (docs.expo.dev/push-notifications/sending-notifications, "Push receipts"):
 * `{ status: 'ok' }` means Expo handed the notification to Apple or Google (DELIVERED, as far as a
 * receipt can tell); `{ status: 'error', message, details: { error } }` is final (FAILED).
 */
export function receiptReport(id: string, raw: unknown, secrets: readonly string[]): DeliveryReport | null {
  const receipt = asRecord(raw);
  if (receipt['status'] === 'ok') return { providerMessageId: id, status: 'DELIVERED', errorCode: null, vendorStatus: 'ok (handed to APNs/FCM)', occurredAt: null };
  if (receipt['status'] !== 'error') return null;
  const error = asString(asRecord(receipt['details'])['error']);
  const message = vendorText(receipt['message'], secrets);
  return {
    providerMessageId: id, status: 'FAILED', errorCode: (error && RECEIPT_ERRORS[error]) ?? 'VENDOR_REJECTED',
    vendorStatus: [error ?? 'error', message].filter(Boolean).join(': ').slice(0, 300), occurredAt: null,
  };
}

/**
 * Asks Expo for the receipts of `ids` (`POST /--/api/v2/push/getReceipts` with `{ ids }`, answered
 * `{ data: { [id]: receipt } }`), one request per chunk, each with the timeout. Ids without a receipt
 * yet are left out (asked again at the next poll). A failed request stops the poll: what was read so
 * far is returned with the failure.
 */
export async function pollExpoReceipts(baseUrl: string, headers: Record<string, string>, ids: readonly string[], timeoutMs: number,
  secrets: readonly string[]): Promise<ReceiptPoll> {
  const reports: DeliveryReport[] = [];
  for (const chunk of chunkReceiptIds([...new Set(ids)])) {
    const call = await callVendor('Expo receipts', new URL(`${baseUrl}/--/api/v2/push/getReceipts`), { method: 'POST', headers, body: JSON.stringify({ ids: chunk }) }, timeoutMs);
    if (!call.ok) return { reports, failure: call.failure.errorMessage };
    if (!isSuccess(call.answer)) {
      const first = asRecord((asRecord(call.answer.json)['errors'] as unknown[] | undefined)?.[0]);
      return { reports, failure: `Expo receipts: HTTP ${call.answer.status} ${[asString(first['code']), vendorText(first['message'], secrets)].filter(Boolean).join(' ')}` };
    }
    const data = asRecord(asRecord(call.answer.json)['data']);
    for (const id of chunk) {
      const report = id in data ? receiptReport(id, data[id], secrets) : null;
      if (report) reports.push(report);
    }
  }
  return { reports, failure: null };
}
