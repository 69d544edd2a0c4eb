import * as v from 'valibot';
import { deliveryLogView } from '../../domain/message.ts';
import { fieldError } from '../../errors.ts';
import type { Storage } from '../../ports/storage.ts';
import { parseInput } from '../../validation.ts';
import { deliveryLogFilterFields, withoutBlankValues } from './delivery-log-query.ts';

export const DELIVERY_LOG_PAGE_SIZE = { default: 20, max: 100 } as const;

/**
 * Pages reach into the newest 10,000 matching logs, and `total` is counted that far: an offset or a
 * count over a million rows costs hundreds of milliseconds, a bounded one a few (ADR 0006). Older
 * logs are reached by narrowing the filters.
 */
export const DELIVERY_LOG_LIST_WINDOW = 10_000;

const wholeNumber = (description: string) => v.pipe(
  v.string('must be a whole number'), v.description(description), v.regex(/^\d{1,9}$/, 'must be a whole number'), v.transform(Number));

export const ListDeliveryLogsInput = v.object({
  page: v.optional(v.pipe(wholeNumber('Page number, 1 or more (default 1)'), v.minValue(1, 'must be at least 1')), '1'),
  limit: v.optional(v.pipe(
    wholeNumber(`Logs per page, 1 to ${DELIVERY_LOG_PAGE_SIZE.max} (default ${DELIVERY_LOG_PAGE_SIZE.default})`),
    v.minValue(1, 'must be at least 1'), v.maxValue(DELIVERY_LOG_PAGE_SIZE.max, `must be at most ${DELIVERY_LOG_PAGE_SIZE.max}`)),
  String(DELIVERY_LOG_PAGE_SIZE.default)),
  ...deliveryLogFilterFields,
});

export type DeliveryLogView = ReturnType<typeof deliveryLogView>;

export interface DeliveryLogPage {
  items: DeliveryLogView[];
  page: number;
  limit: number;
  /** Matching logs, exact when `totalIsExact`; otherwise more than {@link DELIVERY_LOG_LIST_WINDOW} match and this is that bound. */
  total: number;
  totalIsExact: boolean;
  /** Pages that can be requested: ceil(total / limit). */
  totalPages: number;
}

/** GET /delivery-logs: the organization's delivery logs, newest first (createdAt, then id), filtered and paged. */
export class ListDeliveryLogs {
  readonly #deps: { storage: Pick<Storage, 'messages'> };
  constructor(deps: { storage: Pick<Storage, 'messages'> }) { this.#deps = deps; }

  async execute(organizationId: string, query: unknown): Promise<DeliveryLogPage> {
    const input = parseInput(ListDeliveryLogsInput, withoutBlankValues(query));
    const { page, limit } = input;
    const offset = (page - 1) * limit;
    if (offset >= DELIVERY_LOG_LIST_WINDOW) {
      const lastPage = Math.ceil(DELIVERY_LOG_LIST_WINDOW / limit);
      throw fieldError('page', `must be at most ${lastPage} with limit ${limit}: only the newest ${DELIVERY_LOG_LIST_WINDOW} matching logs are paged; narrow with status or channel`);
    }
    const filter = { status: input.status, channel: input.channel };
    const found = await this.#deps.storage.messages.list(organizationId, filter, offset, limit, DELIVERY_LOG_LIST_WINDOW + 1);
    const totalIsExact = found.total <= DELIVERY_LOG_LIST_WINDOW;
    const total = Math.min(found.total, DELIVERY_LOG_LIST_WINDOW);
    return { items: found.items.map(deliveryLogView), page, limit, total, totalIsExact, totalPages: Math.ceil(total / limit) };
  }
}
