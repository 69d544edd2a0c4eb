import * as v from 'valibot';
import type { DeliveryStatus, Channel } from '../../domain/channel.ts';
import type { Clock } from '../../ports/clock.ts';
import type { DeliveryLogFilter } from '../../ports/message-repository.ts';
import type { Storage } from '../../ports/storage.ts';
import { parseInput } from '../../validation.ts';
import { DELIVERY_LOG_CSV_COLUMNS, csvRecord, deliveryLogCsvRecord } from './delivery-log-csv.ts';
import { deliveryLogFilterFields, withoutBlankValues } from './delivery-log-query.ts';

/** Spec section 8: an export holds at most the newest 10,000 matching logs. */
export const DELIVERY_LOG_EXPORT_MAX_ROWS = 10_000;

/** Text is handed on in pieces of about this many characters, not one write per row. */
const CHUNK_CHARS = 64 * 1024;

export const ExportDeliveryLogsInput = v.object({ ...deliveryLogFilterFields });

export interface DeliveryLogExport {
  /** `delivery-logs-20261103-101500Z[-failed][-sms].csv` */
  filename: string;
  /** More logs match than the export holds: it has the newest {@link DELIVERY_LOG_EXPORT_MAX_ROWS}. */
  truncated: boolean;
  /** The CSV text (header row first), produced as it is read: rows are fetched in chunks while the consumer reads. */
  chunks: AsyncIterable<string>;
}

/**
 * GET /delivery-logs/export: the organization's delivery logs as CSV (RFC 4180, CRLF, UTF-8), newest
 * first, formula-neutralised cells. Validation and the truncation check happen here, before the host
 * commits to a 200; the rows are read lazily.
 */
export class ExportDeliveryLogs {
  readonly #deps: { storage: Pick<Storage, 'messages'>; clock: Clock };
  constructor(deps: { storage: Pick<Storage, 'messages'>; clock: Clock }) { this.#deps = deps; }

  async execute(organizationId: string, query: unknown): Promise<DeliveryLogExport> {
    const input = parseInput(ExportDeliveryLogsInput, withoutBlankValues(query));
    const filter: DeliveryLogFilter = { status: input.status, channel: input.channel };
    const counted = await this.#deps.storage.messages.list(organizationId, filter, 0, 0, DELIVERY_LOG_EXPORT_MAX_ROWS + 1);
    return {
      filename: exportFilename(this.#deps.clock.now(), input.status, input.channel),
      truncated: counted.total > DELIVERY_LOG_EXPORT_MAX_ROWS,
      chunks: this.#csv(organizationId, filter),
    };
  }

  async *#csv(organizationId: string, filter: DeliveryLogFilter): AsyncIterable<string> {
    let pending = csvRecord(DELIVERY_LOG_CSV_COLUMNS);
    for await (const message of this.#deps.storage.messages.stream(organizationId, filter, DELIVERY_LOG_EXPORT_MAX_ROWS)) {
      pending += deliveryLogCsvRecord(message);
      if (pending.length >= CHUNK_CHARS) { yield pending; pending = ''; }
    }
    yield pending;
  }
}

function exportFilename(now: Date, status: DeliveryStatus | undefined, channel: Channel | undefined): string {
  const stamp = now.toISOString().replace(/\.\d+Z$/, 'Z').replace(/[-:]/g, '').replace('T', '-');
  const parts = ['delivery-logs', stamp, status?.toLowerCase(), channel?.toLowerCase()].filter(Boolean);
  return `${parts.join('-')}.csv`;
}
