/**
 * Tracked links (docs/links.md): the URLs of an SMS, WhatsApp or email body replaced by short links
 * that redirect (302) to them and count clicks. Pure functions: no I/O, no randomness (codes come in).
 */

/** A short code: base62, 12 characters (about 71 bits of randomness, docs/links.md "Codes"). */
export const LINK_CODE_LENGTH = 12;
export const LINK_CODE_PATTERN = /^[0-9A-Za-z]{12}$/;
/** At most this many distinct URLs of one body are tracked; later ones are left as written. */
export const MAX_TRACKED_LINKS_PER_MESSAGE = 20;
/** Longest original URL tracked (a longer one is left as written). */
export const MAX_TRACKED_URL_LENGTH = 2_048;

/** One short link of one message: `code` redirects to `url`. */
export interface TrackedLinkDraft {
  code: string;
  url: string;
}

/** Characters that end a URL in text when they are its last character (sentence punctuation, closing quotes). */
const TRAILING = /[.,;:!?'"’”»)\]}>]+$/;
const TEXT_URL = /\bhttps?:\/\/[^\s<>"'`{}|\\^]+/gi;
const HREF = /(<a\b[^>]*?\bhref\s*=\s*)(["'])(.*?)\2/gis;

/**
 * The http(s) URLs of a plain-text body with their positions. Sentence punctuation at the end is not
 * part of the URL ("see https://a.gh/x." -> "https://a.gh/x"), except a closing parenthesis that closes
 * one opened inside the URL (Wikipedia-style "https://en.wikipedia.org/wiki/Accra_(city)").
 */
export function textUrls(body: string): Array<{ start: number; url: string }> {
  const found: Array<{ start: number; url: string }> = [];
  for (const match of body.matchAll(TEXT_URL)) {
    let url = match[0];
    for (;;) {
      const trimmed = url.replace(TRAILING, '');
      if (trimmed === url) break;
      // Keep one ")" when the URL opened more "(" than it closed.
      const cut = url.slice(trimmed.length);
      if (cut.startsWith(')') && count(trimmed, '(') > count(trimmed, ')')) { url = `${trimmed})`; break; }
      url = trimmed;
    }
    if (/^https?:\/\/[^/?#]+\.[^/?#]+/i.test(url)) found.push({ start: match.index, url });
  }
  return found;
}

function count(s: string, c: string): number {
  let n = 0;
  for (const ch of s) if (ch === c) n += 1;
  return n;
}

/** Whether an email body is HTML (then only `<a href>` values are tracked, the visible text stays). */
export function isHtmlBody(body: string): boolean {
  return /<(a|p|div|br|html|body|table|span|img)\b/i.test(body);
}

/**
 * Replaces the body's URLs by short links. `shorten` gives the short URL for an original URL (called once
 * per distinct URL) or null to leave it. Text bodies: every http(s) URL; HTML bodies: the `href` values of
 * `<a>` elements (entities `&amp;` decoded for the target). Returns the new body and the links made.
 */
export function replaceUrls(body: string, html: boolean, shorten: (url: string) => { code: string; shortUrl: string } | null): { body: string; links: TrackedLinkDraft[] } {
  const links = new Map<string, { code: string; shortUrl: string } | null>();
  const shortFor = (url: string) => {
    if (!links.has(url)) {
      const tracked = [...links.values()].filter((l) => l !== null).length;
      links.set(url, tracked >= MAX_TRACKED_LINKS_PER_MESSAGE || url.length > MAX_TRACKED_URL_LENGTH ? null : shorten(url));
    }
    return links.get(url) ?? null;
  };
  let out: string;
  if (html) {
    out = body.replace(HREF, (whole, head: string, quote: string, value: string) => {
      const url = value.trim().replace(/&amp;/g, '&');
      if (!/^https?:\/\//i.test(url)) return whole;
      const short = shortFor(url);
      return short ? `${head}${quote}${short.shortUrl}${quote}` : whole;
    });
  } else {
    out = '';
    let at = 0;
    for (const { start, url } of textUrls(body)) {
      const short = shortFor(url);
      if (!short) continue;
      out += body.slice(at, start) + short.shortUrl;
      at = start + url.length;
    }
    out += body.slice(at);
  }
  return { body: out, links: [...links].flatMap(([url, l]) => (l ? [{ code: l.code, url }] : [])) };
}

/** Whether `url` is on one of `bases` (our own link addresses, e.g. https://nkra.example/l/): never tracked twice. */
export function isUnder(url: string, bases: readonly string[]): boolean {
  const lower = url.toLowerCase();
  return bases.some((b) => lower.startsWith(b.toLowerCase()));
}

/** The host of a link base ("https://go.acme.com.gh/l" -> "go.acme.com.gh"), or null when it is not a URL. */
export function hostOf(url: string): string | null {
  const m = /^https?:\/\/([^/:?#]+)/i.exec(url);
  return m ? m[1]!.toLowerCase() : null;
}

/**
 * User agents of link previewers, crawlers and scripts: their requests are redirected but not counted as
 * clicks (docs/links.md, "What counts as a click"). Matched case-insensitively anywhere in User-Agent.
 */
export const NON_HUMAN_AGENTS = [
  'whatsapp', 'facebookexternalhit', 'facebookcatalog', 'meta-externalagent', 'slackbot', 'slack-imgproxy', 'twitterbot', 'telegrambot',
  'discordbot', 'googlebot', 'google-inspectiontool', 'adsbot-google', 'bingbot', 'bingpreview', 'linkedinbot', 'skypeuripreview',
  'applebot', 'yandexbot', 'duckduckbot', 'baiduspider', 'pinterestbot', 'redditbot', 'embedly', 'iframely', 'outlook', 'microsoft office',
  'msteams', 'viber', 'snapchat', 'vkshare', 'curl/', 'wget/', 'python-requests', 'python-urllib', 'go-http-client', 'okhttp', 'java/',
  'libwww-perl', 'httpclient', 'node-fetch', 'undici', 'axios/', 'headlesschrome', 'phantomjs', 'bot', 'crawler', 'spider', 'preview',
] as const;

/** Whether a request with this User-Agent counts as a click: a missing or non-human agent does not. */
export function countsAsClick(userAgent: string | undefined): boolean {
  if (!userAgent || userAgent.trim() === '') return false;
  const ua = userAgent.toLowerCase();
  return !NON_HUMAN_AGENTS.some((agent) => ua.includes(agent));
}

/** A click within this long of the same client's last click on the same link is not unique (docs/links.md). */
export const UNIQUE_CLICK_WINDOW_MS = 10 * 60_000;
