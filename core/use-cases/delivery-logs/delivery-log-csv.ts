import { deliveredVia, type Message } from '../../domain/message.ts';

/** The export's columns, in order (docs/delivery-logs.md describes each). */
export const DELIVERY_LOG_CSV_COLUMNS = [
  'id', 'internalMessageId', 'createdAt', 'channel', 'recipient', 'status', 'errorCode', 'errorMessage', 'costGhs', 'segments',
  'encoding', 'provider', 'isSandbox', 'sentAt', 'deliveredAt', 'failedAt', 'deliveredVia',
] as const;

/**
 * A spreadsheet reads a cell starting with = + - @ (or tab, CR) as a formula. A leading ' is escaped
 * too, so that readers can undo the escaping exactly: drop one leading ' from any cell that has one.
 */
const ESCAPED_START = /^[=+\-@\t\r']/;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One RFC 4180 field. A value a spreadsheet would evaluate gets a leading `'` (its "this is text"
 * marker), phone numbers like +233... included: Excel then shows them as text instead of turning
 * them into 2.33E+11. Plain-text readers see the quote; docs/delivery-logs.md tells them to drop it.
 */
export function csvField(value: string): string {
  const safe = ESCAPED_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One CSV record with its CRLF terminator. */
export function csvRecord(values: readonly string[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/** Integer pesewas as a GHS amount with exactly two decimals ("0.05"), no floating point. */
export function formatGhs(pesewas: number): string {
  const sign = pesewas < 0 ? '-' : '';
  const abs = Math.abs(pesewas);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

export function deliveryLogCsvRecord(m: Message): string {
  const time = (d: Date | null) => d?.toISOString() ?? '';
  return csvRecord([
    m.id, m.internalMessageId, time(m.createdAt), m.channel, m.recipient, m.status, m.errorCode ?? '', m.errorMessage ?? '',
    formatGhs(m.cost), String(m.segments), m.encoding ?? '', m.provider ?? '', String(m.isSandbox), time(m.sentAt),
    time(m.deliveredAt), time(m.failedAt), deliveredVia(m) ?? '',
  ]);
}
