import { isGsm7 } from './sms-segments.ts';

/**
 * GSM-7 spellings suggested for characters that force an SMS into UCS-2 (docs/templates.md,
 * "Encoding and cost per locale"). Only suggestions: nothing here is applied to a message unless
 * the tenant asks for the suggestion and saves the suggested text itself.
 *
 * Safe means a reader of the language still reads the word: the Ghanaian open vowels and eng
 * (Akan/Twi, Ga, Ewe, Dagbani), Ewe and Hausa hooked letters, typographic quotes, dashes and spaces.
 * Other Latin letters with marks lose the marks (NFD) when what remains is GSM-7; characters without
 * a safe spelling (emoji, the cedi sign ₵, non-Latin scripts) get no suggestion.
 */
const TABLE: Readonly<Record<string, string>> = {
  'ɛ': 'e', 'Ɛ': 'E', 'ɔ': 'o', 'Ɔ': 'O', 'ŋ': 'ng', 'Ŋ': 'Ng',
  'ɖ': 'd', 'Ɖ': 'D', 'ƒ': 'f', 'Ƒ': 'F', 'ʋ': 'v', 'Ʋ': 'V', 'ɣ': 'g', 'Ɣ': 'G', 'ɩ': 'i', 'Ɩ': 'I',
  'ɓ': 'b', 'Ɓ': 'B', 'ɗ': 'd', 'Ɗ': 'D', 'ƙ': 'k', 'Ƙ': 'K', 'ƴ': 'y', 'Ƴ': 'Y',
  '\u2018': "'", '\u2019': "'", '\u201A': "'", '\u201B': "'", '\u2032': "'",
  '\u201C': '"', '\u201D': '"', '\u201E': '"', '\u201F': '"', '\u2033': '"', '«': '"', '»': '"',
  '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2013': '-', '\u2014': '-', '\u2015': '-', '\u2212': '-',
  '\u2026': '...', '\u00A0': ' ', '\u2007': ' ', '\u2009': ' ', '\u202F': ' ', '\u200B': '', '\u2022': '-',
};

/** The suggested GSM-7 spelling of one character, or null when there is no safe one. */
export function gsmSuggestion(ch: string): string | null {
  const listed = TABLE[ch];
  if (listed !== undefined) return listed;
  if (isGsm7(ch)) return ch;
  const bare = ch.normalize('NFD').replace(/\p{M}+/gu, '');
  if (bare !== '' && bare !== ch && /^\p{Script=Latin}+$/u.test(bare)) {
    if (isGsm7(bare)) return bare;
    const mapped = Array.from(bare, (c) => TABLE[c] ?? c).join(''); // 'ɛ́' (tone mark on an open e) -> 'e'
    if (isGsm7(mapped)) return mapped;
  }
  return null;
}

/**
 * The text with every character that has a suggestion replaced by it; characters without one are
 * kept (so the result may still need UCS-2, which the caller reports).
 */
export function transliterate(text: string): string {
  let out = '';
  for (const ch of text) out += isGsm7(ch) ? ch : gsmSuggestion(ch) ?? ch;
  return out;
}
