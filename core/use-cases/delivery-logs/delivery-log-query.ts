import * as v from 'valibot';
import { CHANNELS, DELIVERY_STATUSES } from '../../domain/channel.ts';

/**
 * The filters both delivery log routes accept. REJECTED is accepted besides the spec's five
 * statuses: fraud-blocked and suppressed sends are delivery logs too, and finding them is the
 * point of filtering (docs/delivery-logs.md).
 */
export const deliveryLogFilterFields = {
  status: v.optional(v.pipe(
    v.picklist(DELIVERY_STATUSES, `must be one of ${DELIVERY_STATUSES.join(', ')}`),
    v.description('Only logs in this delivery status'))),
  channel: v.optional(v.pipe(
    v.picklist(CHANNELS, `must be one of ${CHANNELS.join(', ')}`),
    v.description('Only logs of this channel'))),
};

/**
 * Query strings arrive as strings; an empty value (`?status=`) means "not given", as dashboards send
 * blank filters. Anything that is not a plain object is passed on for the schema to refuse.
 */
export function withoutBlankValues(query: unknown): unknown {
  if (typeof query !== 'object' || query === null || Array.isArray(query)) return query;
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== '' && value !== undefined));
}
