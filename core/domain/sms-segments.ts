/**
 * SMS length and segment counting (3GPP TS 23.038 / 23.040). See docs/messaging-rules.md.
 *
 * - GSM-7 when every character is in the GSM 03.38 default alphabet or its extension table;
 *   otherwise UCS-2 for the whole message (one ɛ, ɔ, ŋ, ₵, curly quote or emoji is enough).
 * - GSM-7 counts septets: extension characters (form feed ^ { } \ [ ] ~ | €) travel as ESC + char
 *   and count 2. UCS-2 counts UTF-16 code units: a character outside the BMP (most emoji) counts 2.
 * - One segment holds 160 septets / 70 code units. Longer messages are concatenated and each part
 *   loses room to the 6-byte UDH: 153 septets / 67 code units per segment.
 * - Parts are filled greedily and a character is never split between two parts: an ESC pair and a
 *   UTF-16 surrogate pair always travel in one segment (what handsets and SMSCs do), so a message
 *   can need one segment more than ceil(characters / perSegment).
 * - An empty text is one segment: an SMS with no text is still one PDU on the network and carriers
 *   bill it. Send use cases reject empty bodies before it comes to that.
 */
export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SmsSegments {
  encoding: SmsEncoding;
  segments: number;
  /** Septets for GSM-7 (extension characters count 2), UTF-16 code units for UCS-2. */
  characters: number;
  /** Room per segment at this length: 160 / 70 for a single segment, 153 / 67 when concatenated. */
  perSegment: number;
}

export const GSM7_SINGLE_SEGMENT = 160;
export const GSM7_CONCATENATED_SEGMENT = 153;
export const UCS2_SINGLE_SEGMENT = 70;
export const UCS2_CONCATENATED_SEGMENT = 67;

/** GSM 03.38 default alphabet, in table order, without 0x1B (the escape to the extension table). */
const GSM7_BASIC = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?'
  + '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);

/** GSM 03.38 extension table: each is sent as ESC + character, two septets. */
const GSM7_EXTENSION = new Set('\f^{}\\[~]|€');

/** Counts the encoding, length and segments an SMS with this text needs. */
export function smsSegments(text: string): SmsSegments {
  const gsmSizes = gsm7Sizes(text);
  if (gsmSizes) return count('GSM-7', gsmSizes, GSM7_SINGLE_SEGMENT, GSM7_CONCATENATED_SEGMENT);
  const ucs2Sizes = Array.from(text, (ch) => ch.length);
  return count('UCS-2', ucs2Sizes, UCS2_SINGLE_SEGMENT, UCS2_CONCATENATED_SEGMENT);
}

/** True when the text can be sent in GSM-7 (every character in the default or extension table). */
export function isGsm7(text: string): boolean {
  return gsm7Sizes(text) !== null;
}

/** Septets per character, or null as soon as a character is outside both GSM tables. */
function gsm7Sizes(text: string): number[] | null {
  const sizes: number[] = [];
  for (const ch of text) {
    if (GSM7_BASIC.has(ch)) sizes.push(1);
    else if (GSM7_EXTENSION.has(ch)) sizes.push(2);
    else return null;
  }
  return sizes;
}

function count(encoding: SmsEncoding, sizes: readonly number[], single: number, concatenated: number): SmsSegments {
  const characters = sizes.reduce((sum, size) => sum + size, 0);
  if (characters <= single) return { encoding, segments: 1, characters, perSegment: single };
  let segments = 1;
  let used = 0;
  for (const size of sizes) {
    if (used + size > concatenated) {
      segments += 1;
      used = 0;
    }
    used += size;
  }
  return { encoding, segments, characters, perSegment: concatenated };
}
