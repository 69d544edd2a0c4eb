import type { Channel } from './channel.ts';

/** Channels a passcode can go out on (docs/verify.md). */
export const VERIFY_CHANNELS = ['SMS', 'WHATSAPP', 'VOICE', 'EMAIL'] as const satisfies readonly Channel[];
export type VerifyChannel = (typeof VERIFY_CHANNELS)[number];

export const VERIFY_LOCALES = ['en', 'fr', 'tw', 'ha'] as const;
export type VerifyLocale = (typeof VERIFY_LOCALES)[number];

export type VerificationStatus = 'PENDING' | 'APPROVED' | 'EXPIRED' | 'MAX_ATTEMPTS' | 'CANCELED' | 'FAILED';

export const MAX_CHECK_ATTEMPTS = 5;
export const MAX_SEND_ATTEMPTS = 5;
export const RESEND_COOLDOWN_SECONDS = 30;

export interface VerificationSend {
  channel: VerifyChannel;
  messageId: string;
  createdAt: Date;
}

/** One verification: a recipient proving they hold a phone number or mailbox. The code is held only as a keyed hash. */
export interface Verification {
  id: string;
  organizationId: string;
  recipient: string;
  /** ISO country of a phone recipient; null for email. */
  country: string | null;
  /** E.164 country code plus the first three national digits: the unit of SMS-pumping statistics. Null for email. */
  prefix: string | null;
  channels: VerifyChannel[];
  /** Index in `channels` of the channel used last. */
  channelIndex: number;
  status: VerificationStatus;
  codeHash: string;
  codeLength: number;
  locale: VerifyLocale;
  template: string | null;
  expiresAt: Date;
  fallbackAfterSeconds: number;
  sendAttempts: number;
  checkAttempts: number;
  sends: VerificationSend[];
  lastSentAt: Date;
  ipAddress: string | null;
  /** The start's idempotencyKey: a retried start answers this verification. */
  idempotencyKey: string | null;
  approvedAt: Date | null;
  /**
   * The latest code of a sandbox verification (docs/sandbox.md), for test integrations: nothing of a
   * sandbox verification reaches a phone. Always null (or absent) for a live one.
   */
  sandboxCode?: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What an organization sets for Verify (docs/verify.md, "SMS-pumping defence"). */
export interface VerifySettings {
  allowedCountries: string[];
  maxStartsPerRecipientPerHour: number;
  maxStartsPerIpPerHour: number;
  /** Starts of the whole organization per hour, every recipient and address together (pumping over many prefixes). */
  maxStartsPerHour: number;
  codeLength: number;
  expiresInSeconds: number;
  prefixBlocking: boolean;
}

export const DEFAULT_VERIFY_SETTINGS: VerifySettings = {
  allowedCountries: ['GH'], maxStartsPerRecipientPerHour: 5, maxStartsPerIpPerHour: 20, maxStartsPerHour: 1000, codeLength: 6, expiresInSeconds: 600, prefixBlocking: true,
};

/** A prefix is blocked when, in the last hour, it had at least this many starts ... */
export const PREFIX_MIN_STARTS = 20;
/** ... and fewer than this share of them approved. */
export const PREFIX_MIN_CONVERSION = 0.1;

/** The pumping-statistics prefix of an E.164 number: "+233" and the first three national digits ("+233244"). */
export function verifyPrefix(e164: string, countryCallingCode: string): string {
  return `+${countryCallingCode}${e164.slice(1 + countryCallingCode.length, 1 + countryCallingCode.length + 3)}`;
}

/** The status a PENDING verification really has at `now` (expiry is not written by a timer). */
export function effectiveStatus(v: Pick<Verification, 'status' | 'expiresAt'>, now: Date): VerificationStatus {
  return v.status === 'PENDING' && v.expiresAt.getTime() <= now.getTime() ? 'EXPIRED' : v.status;
}

const TEXT: Record<VerifyLocale, (code: string, minutes: number) => string> = {
  en: (code, m) => `Your verification code is ${code}. It expires in ${m} minutes. Do not share it with anyone.`,
  fr: (code, m) => `Votre code de vérification est ${code}. Il expire dans ${m} minutes. Ne le partagez avec personne.`,
  tw: (code, m) => `Wo verification code ne ${code}. Ɛbɛ yɛ adwuma simma ${m}. Mfa nkyerɛ obiara.`,
  ha: (code, m) => `Lambar tabbatarwarka ita ce ${code}. Za ta ƙare cikin minti ${m}. Kada ka ba kowa.`,
};

const VOICE_INTRO: Record<VerifyLocale, string> = {
  en: 'Your verification code is', fr: 'Votre code de vérification est', tw: 'Wo verification code ne', ha: 'Lambar tabbatarwarka ita ce',
};
const VOICE_AGAIN: Record<VerifyLocale, string> = { en: 'Again', fr: 'Je répète', tw: 'Bio', ha: 'Kuma' };

/**
 * The message text of one send. Voice reads the code digit by digit, each digit its own sentence (a
 * pause), twice. A custom template replaces `{{code}}` and `{{minutes}}`.
 */
export function passcodeText(channel: VerifyChannel, code: string, locale: VerifyLocale, minutes: number, template: string | null): string {
  if (channel === 'VOICE') {
    const digits = code.split('').join('. ');
    return `${VOICE_INTRO[locale]}: ${digits}. ${VOICE_AGAIN[locale]}: ${digits}.`;
  }
  if (template) return template.replaceAll('{{code}}', code).replaceAll('{{minutes}}', String(minutes));
  return TEXT[locale](code, minutes);
}

/** How a passcode appears wherever a message is stored or shown: one `*` per digit (GSM-7, so segments and price stay those of the real text). */
export function maskPasscode(code: string): string {
  return '*'.repeat(code.length);
}

/**
 * The API's view of a verification (docs/verify.md); a sandbox verification's answers also carry
 * `sandboxCode` (never a webhook's payload, never a live verification's).
 */
export function verificationView(v: Verification, now: Date, sendStatuses: ReadonlyMap<string, string> = new Map(), options: { forWebhook?: boolean } = {}) {
  return {
    id: v.id, to: v.recipient, country: v.country, channel: v.channels[v.channelIndex], channels: v.channels, status: effectiveStatus(v, now),
    codeLength: v.codeLength, expiresAt: v.expiresAt.toISOString(), sendAttempts: v.sendAttempts, maxSendAttempts: MAX_SEND_ATTEMPTS,
    checkAttempts: v.checkAttempts, maxCheckAttempts: MAX_CHECK_ATTEMPTS,
    sends: v.sends.map((s) => ({ channel: s.channel, messageId: s.messageId, status: sendStatuses.get(s.messageId) ?? null, createdAt: s.createdAt.toISOString() })),
    createdAt: v.createdAt.toISOString(), updatedAt: v.updatedAt.toISOString(),
    ...(v.sandboxCode && !options.forWebhook ? { sandboxCode: v.sandboxCode } : {}),
  };
}
