import type { Channel } from './channel.ts';
import { isSubscriberId } from './inbox.ts';
import { DEFAULT_COUNTRY, normalizePhone, type NormalizedPhone } from './phone.ts';
import { looksLikeWebPushSubscription, parseWebPushSubscription } from './web-push-subscription.ts';

/** Channels whose recipient is a phone number (sent in E.164). */
export const PHONE_CHANNELS: readonly Channel[] = ['SMS', 'WHATSAPP', 'VOICE'];

export function isPhoneChannel(channel: Channel): boolean {
  return PHONE_CHANNELS.includes(channel);
}

/**
 * A recipient in the one form it is stored, deduplicated, suppressed and sent in.
 * `country` is the phone number's own country (which prices and routes the message, whatever
 * countryCode said); null for email and push, and for non-geographic numbers.
 * `phone` carries the parsed number for the fraud checks (null for email and push).
 */
export type RecipientResult =
  | { ok: true; recipient: string; country: string | null; phone: NormalizedPhone | null; /** PUSH only. */ pushTokenKind?: PushTokenKind }
  | { ok: false; reason: string };

/** RFC 5321: 64 octets of local part, 255 of domain, 254 for the whole path an MTA will accept. */
export const EMAIL_MAX_LENGTH = 254;
const LOCAL_PART_MAX_LENGTH = 64;
const DOMAIN_LABEL_MAX_LENGTH = 63;

/** FCM registration tokens: URL-safe base64 plus ':' (e.g. 'fcm-instance-id:APA91b...'), ~150-200 chars today. */
export const PUSH_TOKEN_MIN_LENGTH = 100;
export const PUSH_TOKEN_MAX_LENGTH = 4096;
const PUSH_TOKEN = /^[A-Za-z0-9_:-]+$/;
/** APNs device tokens as apps get them: hex, 32 bytes (64 digits) today; Apple warns the size may grow. */
const APNS_TOKEN = /^(?:[0-9a-f]{2}){32,100}$/i;
/**
 * Expo push tokens, exactly as Expo's own SDK accepts them (expo-server-sdk `Expo.isExpoPushToken`):
 * `ExponentPushToken[...]` or `ExpoPushToken[...]`, or a bare UUID (what `getExpoPushTokenAsync` gives
 * some apps, e.g. `a1b2c3d4-e5f6-7890-abcd-ef1234567890`). Only the overall length cap is ours.
 */
const EXPO_TOKEN = /^(?:Expo(?:nent)?PushToken\[.*\]|[a-z\d]{8}-[a-z\d]{4}-[a-z\d]{4}-[a-z\d]{4}-[a-z\d]{12})$/is;

/** Which push service a device token belongs to (the vendor that can deliver to it); `web`: a browser's Web Push subscription. */
export type PushTokenKind = 'fcm' | 'apns' | 'expo' | 'web';

/** How messages name a token kind: FCM, APNs, Expo, Web Push. */
export function pushTokenLabel(kind: PushTokenKind): string {
  return { fcm: 'FCM', apns: 'APNs', expo: 'Expo', web: 'Web Push' }[kind];
}

/** Detects a token's push service, or null when it is none of the kinds we deliver to. */
export function pushTokenKind(token: string): PushTokenKind | null {
  if (looksLikeWebPushSubscription(token)) return parseWebPushSubscription(token).ok ? 'web' : null;
  if (token.length <= PUSH_TOKEN_MAX_LENGTH && EXPO_TOKEN.test(token)) return 'expo';
  if (APNS_TOKEN.test(token)) return 'apns';
  return isPushToken(token) ? 'fcm' : null;
}

/**
 * Why a message fails when providers serve its channel but none accepts its destination (errorCode
 * NO_PROVIDER_FOR_TOKEN): names the push token's kind and the vendor that delivers to it.
 */
export function noProviderForDestination(channel: Channel, to: string): string {
  const kind = channel === 'PUSH' ? pushTokenKind(to) : null;
  if (!kind) return `No ${channel} provider configured accepts this destination`;
  if (kind === 'web') return 'No PUSH provider configured accepts Web Push subscriptions (kind web); configure a web-push provider';
  return `No PUSH provider configured accepts ${pushTokenLabel(kind)} device tokens (kind ${kind}); configure a ${kind}-push provider`;
}

/**
 * Normalizes the `to` of a send for its channel: SMS, WHATSAPP and VOICE take a phone number
 * (read with `countryCode` as the default country, see normalizePhone), EMAIL an address, PUSH a
 * device token of FCM, APNs or Expo or a Web Push subscription JSON (its kind detected), IN_APP a subscriber id (the tenant's own id of the
 * person, docs/inbox.md). `reason` reads after the field name ("to is not a valid email address").
 */
export function normalizeRecipient(channel: Channel, raw: string, countryCode: string = DEFAULT_COUNTRY): RecipientResult {
  switch (channel) {
    case 'SMS':
    case 'WHATSAPP':
    case 'VOICE': {
      const result = normalizePhone(raw, countryCode);
      if (!result.ok) return { ok: false, reason: result.reason };
      return { ok: true, recipient: result.phone.e164, country: result.phone.country, phone: result.phone };
    }
    case 'EMAIL': {
      const email = normalizeEmail(raw);
      if (email === null) return { ok: false, reason: 'is not a valid email address' };
      return { ok: true, recipient: email, country: null, phone: null };
    }
    case 'PUSH': {
      const token = raw.trim();
      if (looksLikeWebPushSubscription(token)) {
        const read = parseWebPushSubscription(token);
        if (!read.ok) return { ok: false, reason: read.reason };
        return { ok: true, recipient: read.canonical, country: null, phone: null, pushTokenKind: 'web' };
      }
      const kind = pushTokenKind(token);
      if (!kind) {
        return { ok: false, reason: 'is not a valid push device token (an FCM registration token, a 64-hex-digit APNs token, an Expo push token or a Web Push subscription JSON)' };
      }
      return { ok: true, recipient: kind === 'apns' ? token.toLowerCase() : token, country: null, phone: null, pushTokenKind: kind };
    }
    case 'IN_APP': {
      const subscriberId = raw.trim();
      if (!isSubscriberId(subscriberId)) return { ok: false, reason: 'is not a valid subscriber id (1-128 letters, digits and . _ : @ + -)' };
      return { ok: true, recipient: subscriberId, country: null, phone: null };
    }
  }
}

/**
 * Returns the address trimmed, with its domain lowercased, or null when it is not one we can send to.
 *
 * Accepted: `local@domain` with a dot-atom local part (RFC 5322 atext, dots neither first, last nor
 * doubled; at most 64 characters, case kept because RFC 5321 leaves it to the receiving host) and a
 * hostname domain (at least two labels of letters, digits and inner hyphens, each at most 63, and a
 * top-level label that is not all digits); at most 254 characters in all.
 * Refused on purpose: quoted local parts, comments, IP-literal domains ([192.0.2.1]) and non-ASCII
 * addresses (SMTPUTF8); they are legal but almost always typos or abuse in a notification service.
 */
export function normalizeEmail(raw: string): string | null {
  const text = raw.trim();
  if (text.length === 0 || text.length > EMAIL_MAX_LENGTH) return null;
  const at = text.lastIndexOf('@');
  if (at <= 0) return null;
  const local = text.slice(0, at);
  const domain = text.slice(at + 1).toLowerCase();
  if (!isDotAtomLocalPart(local) || !isHostname(domain)) return null;
  return `${local}@${domain}`;
}

export function isPushToken(token: string): boolean {
  return token.length >= PUSH_TOKEN_MIN_LENGTH && token.length <= PUSH_TOKEN_MAX_LENGTH && PUSH_TOKEN.test(token);
}

function isDotAtomLocalPart(local: string): boolean {
  if (local.length > LOCAL_PART_MAX_LENGTH) return false;
  return /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/.test(local);
}

function isHostname(domain: string): boolean {
  const labels = domain.split('.');
  if (labels.length < 2) return false;
  const valid = labels.every((label) => label.length <= DOMAIN_LABEL_MAX_LENGTH && /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/.test(label));
  return valid && !/^[0-9]+$/.test(labels[labels.length - 1] ?? '');
}
