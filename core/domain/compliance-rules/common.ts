import type { ComplianceRule } from './types.ts';

/** A link: a scheme, www., or a bare domain with a path. */
export const LINK = /\b(?:https?:\/\/|www\.)\S+|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|org|info|xyz|top|site|online|link|click|gh|ng|co|io|me|ly)\/\S*/i;

/** Public URL shorteners: they hide where a link goes, so phishing relies on them. */
export const URL_SHORTENERS = [
  'bit.ly', 'tinyurl.com', 't.co', 'goo.gl', 'ow.ly', 'is.gd', 'buff.ly', 'cutt.ly', 'rb.gy', 'shorturl.at', 'tiny.cc',
  's.id', 'rebrand.ly', 't.ly', 'bl.ink', 'shorte.st', 'v.gd', 'lnkd.in',
] as const;

/**
 * Banks, mobile-money services and payment brands senders in Ghana imitate. Lowercase, one word
 * (how the brand is written in a message); a message naming one correctly is fine. Names one edit away
 * from a common word ("Consolidated"/consolidate, "ExpressPay"/expressway) are left out on purpose.
 */
export const IMITATED_BRANDS = [
  'mtn', 'momo', 'vodafone', 'telecel', 'airteltigo', 'ecobank', 'stanbic', 'absa', 'zenith', 'fidelity', 'calbank', 'gtbank',
  'gcb', 'prudential', 'hubtel', 'zeepay', 'paystack', 'ghanapay',
] as const;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Rules that do not depend on the message's language: links, shorteners, imitated brand names. */
export const COMMON_RULES: readonly ComplianceRule[] = [
  {
    id: 'phishing.url-shortener', family: 'phishing', severity: 'medium',
    matcher: { kind: 'pattern', pattern: new RegExp(`(?<![\\w.-])(?:https?:\\/\\/)?(?:www\\.)?(?:${URL_SHORTENERS.map(escape).join('|')})(?=\\/|\\s|$|[),.!?])`, 'i') },
    explanation: 'A shortened link hides its destination; recipients cannot tell it from a phishing link.',
    suggestion: 'Use the full address of your own domain (e.g. https://yourcompany.com.gh/offer).',
  },
  {
    id: 'phishing.lookalike-brand', family: 'phishing', severity: 'high',
    matcher: { kind: 'lookalike', names: IMITATED_BRANDS },
    explanation: 'A misspelt or disguised bank or mobile-money name (such as "M0M0" or "Ecobnak") is a classic impersonation trick.',
    suggestion: 'Write brand names exactly; only name a bank or mobile-money service you are authorised to speak for.',
  },
];
