import { isGsm7, smsSegments, type SmsEncoding } from './sms-segments.ts';
import { gsmSuggestion, transliterate } from './transliteration.ts';

/** At most this many characters forcing UCS-2 are listed (the count is exact). */
export const UCS2_CHARACTERS_LISTED = 100;

/** One character that keeps a text out of GSM-7. */
export interface Ucs2Character {
  /** UTF-16 offset in the text (a JavaScript string index): `text.slice(index, index + char.length)`. */
  index: number;
  /** Offset counted in Unicode code points (Python's str index). */
  codePointIndex: number;
  char: string;
  /** 'U+025B'. */
  codePoint: string;
  /** The GSM-7 spelling suggested (docs/templates.md), or null when none is safe. Only when suggestions were asked for. */
  suggestion?: string | null;
}

export interface EncodingReport {
  encoding: SmsEncoding;
  segments: number;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2). */
  characters: number;
  perSegment: number;
  /** The characters forcing UCS-2 (none for GSM-7), the first UCS2_CHARACTERS_LISTED of them. */
  ucs2Characters: Ucs2Character[];
  ucs2CharacterCount: number;
  /**
   * Only when the tenant asked for suggestions and the text is UCS-2: the text with the suggested
   * spellings and what it would need. `complete` false: some characters have no safe spelling and
   * the suggestion is still UCS-2.
   */
  transliteration?: { text: string; encoding: SmsEncoding; segments: number; characters: number; complete: boolean } | null;
}

/** The SMS encoding of `text`, its segments and the characters that force UCS-2. Pure. */
export function encodingReport(text: string, options: { suggest?: boolean } = {}): EncodingReport {
  const counted = smsSegments(text);
  const ucs2Characters: Ucs2Character[] = [];
  let count = 0; let index = 0; let codePointIndex = 0;
  if (counted.encoding === 'UCS-2') {
    for (const ch of text) {
      if (!isGsm7(ch)) {
        count += 1;
        if (ucs2Characters.length < UCS2_CHARACTERS_LISTED) {
          ucs2Characters.push({ index, codePointIndex, char: ch, codePoint: `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`,
            ...(options.suggest ? { suggestion: gsmSuggestion(ch) } : {}) });
        }
      }
      index += ch.length; codePointIndex += 1;
    }
  }
  const report: EncodingReport = { ...counted, ucs2Characters, ucs2CharacterCount: count };
  if (options.suggest) {
    if (counted.encoding === 'GSM-7') return { ...report, transliteration: null };
    const suggested = transliterate(text);
    const after = smsSegments(suggested);
    report.transliteration = { text: suggested, encoding: after.encoding, segments: after.segments, characters: after.characters, complete: after.encoding === 'GSM-7' };
  }
  return report;
}
