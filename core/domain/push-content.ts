/**
 * What a PUSH message carries besides its title (the message's `subject`) and body
 * (docs/messaging-rules.md, "Push content"): an optional image URL, an optional deep link and a
 * `data` object of string values delivered to the app. Each vendor adapter places them where its
 * protocol wants them (FCM message.notification.image / message.data / webpush.fcm_options.link,
 * APNs mutable-content and custom keys, Expo richContent.image and data).
 */
export interface PushContent {
  /** HTTPS URL of an image shown in the notification; null when none. */
  imageUrl: string | null;
  /** Deep link or URL the app opens on tap (`myapp://orders/1`, `https://...`); null when none. */
  link: string | null;
  /** Custom key/value pairs for the app. String values only: FCM's data map is string to string. */
  data: Record<string, string>;
}

/** FCM, APNs and Expo all refuse a notification payload above 4 KiB (4,096 bytes). */
export const PUSH_PAYLOAD_MAX_BYTES = 4_096;
export const PUSH_DATA_MAX_KEYS = 50;
export const PUSH_DATA_KEY_MAX = 64;
export const PUSH_URL_MAX = 2_048;

/** Keys the message itself uses (`message_id`, `link`, `image`), APNs' `aps`, and FCM's reserved words. */
const RESERVED_KEYS = new Set(['message_id', 'link', 'image', 'aps', 'from', 'notification', 'message_type', 'collapse_key']);

/** Why a `data` key cannot be sent, or null when it can. FCM refuses `from`, `notification`, `message_type` and keys starting `google` or `gcm`. */
export function reservedPushDataKey(key: string): string | null {
  if (key === '') return 'keys must not be empty';
  if (RESERVED_KEYS.has(key)) return `"${key}" is a reserved key`;
  if (/^(google|gcm)/i.test(key)) return `"${key}" starts with a prefix FCM reserves (google, gcm)`;
  return null;
}

export function hasPushContent(push: PushContent | null | undefined): push is PushContent {
  return !!push && (push.imageUrl !== null || push.link !== null || Object.keys(push.data).length > 0);
}

/**
 * The size in bytes of the largest vendor payload the message makes, an upper bound shared by the
 * three vendors: an APNs-shaped JSON document with the alert, mutable-content, the message id and every
 * custom key (FCM's and Expo's bodies carry the same strings with less structure).
 */
export function pushPayloadBytes(title: string | null, body: string, push: PushContent | null): number {
  const document = {
    aps: { alert: { ...(title ? { title } : {}), body }, sound: 'default', 'mutable-content': 1 },
    message_id: '00000000-0000-0000-0000-000000000000',
    ...(push?.link ? { link: push.link } : {}),
    ...(push?.imageUrl ? { image: push.imageUrl } : {}),
    ...(push?.data ?? {}),
  };
  return new TextEncoder().encode(JSON.stringify(document)).length;
}

/** The data map sent to the app: the custom keys, then our reference and the link. */
export function pushDataMap(messageId: string, push: PushContent | null | undefined): Record<string, string> {
  return { ...(push?.data ?? {}), message_id: messageId, ...(push?.link ? { link: push.link } : {}) };
}

/** The spellings a contact may hold a token in: an APNs token (hex) in either case, any other exactly. */
export function pushTokenSpellings(token: string): string[] {
  return /^[0-9a-f]{64,}$/i.test(token) ? [...new Set([token, token.toLowerCase(), token.toUpperCase()])] : [token];
}

/** The error code of a send or receipt meaning the device token is dead for good (FCM UNREGISTERED, APNs 410, Expo DeviceNotRegistered). */
export const DEAD_TOKEN_CODE = 'UNREGISTERED';
