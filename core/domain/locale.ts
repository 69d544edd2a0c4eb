import * as v from 'valibot';

/**
 * Locales of templates and contacts (docs/templates.md, "Locales"): BCP 47 tags with a two- or
 * three-letter primary language, language-only codes allowed ('tw', 'ee', 'gaa', 'ha', 'fr', 'en-GH').
 *
 * Stored in normalised case only (language lower, script title, region upper: 'EN-gh' -> 'en-GH'),
 * never aliased: Intl.getCanonicalLocales would turn 'tw-GH' into 'ak-GH' and 'iw' into 'he', and
 * a tenant's variant must keep the tag the tenant wrote. Intl still checks that the tag is well formed.
 */
export const LOCALE_MAX = 35;
const SHAPE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;

/** The tag in normalised case, or null when it is not a BCP 47 tag of the accepted shape. */
export function normaliseLocale(raw: string): string | null {
  const tag = raw.trim();
  if (tag.length === 0 || tag.length > LOCALE_MAX || !SHAPE.test(tag)) return null;
  try {
    if (Intl.getCanonicalLocales(tag).length !== 1) return null;
  } catch {
    return null;
  }
  const parts = tag.split('-');
  return parts.map((part, i) => {
    if (i === 0) return part.toLowerCase();
    if (/^[A-Za-z]{4}$/.test(part) && i === 1) return part[0]!.toUpperCase() + part.slice(1).toLowerCase(); // script
    if (/^([A-Za-z]{2}|[0-9]{3})$/.test(part) && parts.slice(1, i).every((p) => /^[A-Za-z]{4}$/.test(p))) return part.toUpperCase(); // region
    return part.toLowerCase();
  }).join('-');
}

/** Two tags name the same locale (case-insensitive, as BCP 47 says). */
export function sameLocale(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** The primary language subtag ('en-GH' -> 'en'). */
export function languageOf(tag: string): string {
  return (tag.split('-')[0] ?? tag).toLowerCase();
}

/**
 * RFC 4647 lookup candidates, most specific first: 'en-Latn-GH' -> ['en-Latn-GH', 'en-Latn', 'en'].
 * A single-letter subtag (an extension or private-use singleton) is dropped with what follows it.
 */
export function lookupCandidates(tag: string): string[] {
  const parts = tag.split('-');
  const singleton = parts.findIndex((p, i) => i > 0 && p.length === 1);
  const kept = singleton === -1 ? parts : parts.slice(0, singleton);
  const out: string[] = [];
  for (let n = kept.length; n >= 1; n -= 1) out.push(kept.slice(0, n).join('-'));
  return out;
}

/** A locale in a request body: normalised, or the field's VALIDATION_ERROR. */
export const localeSchema = v.pipe(
  v.string('must be a string'),
  v.check((tag) => normaliseLocale(tag) !== null, 'must be a BCP 47 language tag such as tw, ee, gaa, fr or en-GH'),
  v.transform((tag) => normaliseLocale(tag)!),
);
