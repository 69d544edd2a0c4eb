import * as v from 'valibot';
import { AppError, type ValidationDetails } from '../../errors.ts';
import type { Channel } from '../../domain/channel.ts';
import {
  PUSH_DATA_KEY_MAX, PUSH_DATA_MAX_KEYS, PUSH_PAYLOAD_MAX_BYTES, PUSH_URL_MAX, pushPayloadBytes, reservedPushDataKey, type PushContent,
} from '../../domain/push-content.ts';
import { WEB_PUSH_PAYLOAD_MAX_BYTES, webPushPayloadBytes } from '../../domain/web-push-subscription.ts';
import type { PushTokenKind } from '../../domain/recipient.ts';

/** The optional push fields of a send (docs/messaging-rules.md, "Push content"). */
export interface PushFields {
  imageUrl?: string | undefined;
  link?: string | undefined;
  data?: Record<string, string> | undefined;
}

/** Schema entries spread into the send and bulk item schemas. */
export const pushFieldEntries = {
  imageUrl: v.optional(v.pipe(v.string('must be a string'), v.trim(), v.maxLength(PUSH_URL_MAX, `must be at most ${PUSH_URL_MAX} characters`),
    v.url('must be a URL'), v.regex(/^https:\/\//i, 'must be an https URL'))),
  link: v.optional(v.pipe(v.string('must be a string'), v.trim(), v.maxLength(PUSH_URL_MAX, `must be at most ${PUSH_URL_MAX} characters`),
    v.regex(/^[a-z][a-z0-9+.-]*:\S+$/i, 'must be a URL or deep link with a scheme (https://..., myapp://...)'))),
  data: v.optional(v.pipe(
    v.custom<Record<string, unknown>>((x) => typeof x === 'object' && x !== null && !Array.isArray(x), 'must be an object of string to string'),
    v.record(v.pipe(v.string(), v.maxLength(PUSH_DATA_KEY_MAX, `keys must be at most ${PUSH_DATA_KEY_MAX} characters`)),
      v.string('values must be strings (FCM carries data as string to string)')),
    v.check((record) => Object.keys(record).length <= PUSH_DATA_MAX_KEYS, `at most ${PUSH_DATA_MAX_KEYS} keys`),
    v.check((record) => Object.keys(record).every((k) => reservedPushDataKey(k) === null),
      (issue) => reservedPushDataKey(Object.keys(issue.input as Record<string, string>).find((k) => reservedPushDataKey(k) !== null) ?? '') ?? 'reserved key'))),
};

/**
 * The push content of a prepared message: the fields are refused on other channels (never silently
 * dropped), and the whole notification must fit the vendors' 4 KiB payload: a VALIDATION_ERROR names
 * `data` when the data made it too big, `body` otherwise.
 */
export function checkPushContent(draft: PushFields & { channel: Channel }, title: string | null, body: string, field: string, kind?: PushTokenKind): PushContent | null {
  const given = (['imageUrl', 'link', 'data'] as const).filter((k) => draft[k] !== undefined);
  if (draft.channel !== 'PUSH') {
    if (given.length > 0) throw invalid(`${field}${given[0]}`, `${given[0]} is only for PUSH messages`);
    return null;
  }
  const push: PushContent = { imageUrl: draft.imageUrl ?? null, link: draft.link ?? null, data: { ...(draft.data ?? {}) } };
  const bytes = pushPayloadBytes(title, body, push);
  if (bytes > PUSH_PAYLOAD_MAX_BYTES) {
    const withoutData = pushPayloadBytes(title, body, { ...push, data: {} });
    const culprit = Object.keys(push.data).length > 0 && withoutData <= PUSH_PAYLOAD_MAX_BYTES ? 'data' : 'body';
    throw invalid(`${field}${culprit}`, `the push notification would be ${bytes} bytes; FCM, APNs and Expo accept at most ${PUSH_PAYLOAD_MAX_BYTES} (shorten the ${culprit === 'data' ? 'data' : 'title, body or link'})`);
  }
  if (kind === 'web') {
    // A Web Push body is the encrypted JSON: 3,993 bytes of it fill the 4,096 bytes every push service must take (RFC 8030, RFC 8291).
    const webBytes = webPushPayloadBytes(title, body, push);
    if (webBytes > WEB_PUSH_PAYLOAD_MAX_BYTES) {
      const culprit = Object.keys(push.data).length > 0 && webPushPayloadBytes(title, body, { ...push, data: {} }) <= WEB_PUSH_PAYLOAD_MAX_BYTES ? 'data' : 'body';
      throw invalid(`${field}${culprit}`, `the Web Push notification would be ${webBytes} bytes before encryption; at most ${WEB_PUSH_PAYLOAD_MAX_BYTES} fit a push service's 4096-byte body (shorten the ${culprit === 'data' ? 'data' : 'title, body or link'})`);
    }
  }
  return push;
}

function invalid(field: string, message: string): AppError {
  const details: ValidationDetails = { fieldErrors: { [field]: [message] }, formErrors: [] };
  return new AppError('VALIDATION_ERROR', message, { ...details });
}
