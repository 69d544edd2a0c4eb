/**
 * Keywords in inbound messages (docs/conversations.md, "Keywords"). A message is a keyword when the
 * whole text, trimmed, upper-cased, without accents, trailing punctuation and repeated spaces, equals
 * one: "Stop." and "  arrêt " are keywords, "please stop the promo" is not (carriers match whole
 * messages too; a stray word in a sentence must not unsubscribe anyone).
 */
export const KEYWORD_ACTIONS = ['OPT_OUT', 'OPT_IN', 'AUTO_REPLY'] as const;
export type KeywordAction = (typeof KEYWORD_ACTIONS)[number];

/**
 * Built-in opt-out words. English (carrier standard), French, and common words for "stop" in Twi
 * (GYAE), Ga (KPA) and Ewe (DZUDZO, from dzudzɔ): the local-language words are not confirmed by a
 * telecom standard; organizations add their own with tenant keywords.
 */
export const OPT_OUT_KEYWORDS: readonly string[] = [
  'STOP', 'STOPALL', 'STOP ALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'OPTOUT', 'OPT OUT', 'OPT-OUT', 'REVOKE',
  'ARRET', 'ARRETER', 'DESABONNER', 'DESINSCRIRE', 'STOP SVP',
  'GYAE', 'KPA', 'DZUDZO',
];

/** Built-in opt-in words: the contact takes back an opt-out made by keyword on the same channel. */
export const OPT_IN_KEYWORDS: readonly string[] = ['START', 'UNSTOP', 'SUBSCRIBE', 'OPTIN', 'OPT IN', 'OPT-IN', 'ABONNER', 'REPRENDRE'];

/** A keyword an organization configured (on top of the built-in ones, which it cannot override). */
export interface TenantKeyword {
  id: string;
  organizationId: string;
  /** Normalized (normalizeKeyword). */
  keyword: string;
  action: KeywordAction;
  /** Sent back on the channel the contact used; required for AUTO_REPLY, optional confirmation otherwise. */
  replyText: string | null;
  createdAt: Date;
}

export const TENANT_KEYWORDS_MAX = 50;
export const KEYWORD_MAX = 30;

/** The comparison form of a message or a keyword. */
export function normalizeKeyword(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/ɔ/gi, 'O').replace(/ɛ/gi, 'E')
    .toUpperCase().replace(/\s+/g, ' ').trim().replace(/[.!?,;:]+$/, '').trim();
}

/** What an inbound text asks for: a built-in word first (a tenant cannot turn STOP into an auto-reply), then the tenant's. */
export function decideKeyword(text: string, tenant: readonly TenantKeyword[]): { action: KeywordAction; keyword: string; replyText: string | null } | null {
  if (text.length > 60) return null;
  const word = normalizeKeyword(text);
  if (word === '') return null;
  if (OPT_OUT_KEYWORDS.includes(word)) return { action: 'OPT_OUT', keyword: word, replyText: tenant.find((k) => k.keyword === word)?.replyText ?? null };
  if (OPT_IN_KEYWORDS.includes(word)) return { action: 'OPT_IN', keyword: word, replyText: tenant.find((k) => k.keyword === word)?.replyText ?? null };
  const own = tenant.find((k) => k.keyword === word);
  return own ? { action: own.action, keyword: word, replyText: own.replyText } : null;
}

export function tenantKeywordView(k: TenantKeyword) {
  return { id: k.id, keyword: k.keyword, action: k.action, replyText: k.replyText, createdAt: k.createdAt.toISOString() };
}
