import { CHANNELS, type Channel } from './channel.ts';
import { smsSegments } from './sms-segments.ts';

const DAY_MS = 24 * 3600 * 1000;

export function startOfUtcDay(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
}

export function startOfUtcMonth(at: Date, monthsBack = 0): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - monthsBack, 1));
}

export function addDays(at: Date, days: number): Date {
  return new Date(at.getTime() + days * DAY_MS);
}

export function isoDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/**
 * Accepted by a provider out of those with an outcome: (SENT + DELIVERED) / (SENT + DELIVERED + FAILED),
 * 4 decimals; null without outcomes. QUEUED, PENDING and REJECTED do not count.
 */
export function deliveryRate(accepted: number, failed: number): number | null {
  const total = accepted + failed;
  return total === 0 ? null : Math.round((accepted / total) * 10_000) / 10_000;
}

/** Change from `previous` to `current` in percent (1 decimal); null when previous is 0. */
export function percentChange(current: number, previous: number): number | null {
  return previous === 0 ? null : Math.round(((current - previous) / previous) * 1_000) / 10;
}

export function emptyByChannel(): Record<Channel, number> {
  return Object.fromEntries(CHANNELS.map((c) => [c, 0])) as Record<Channel, number>;
}

/**
 * Characters that force an SMS into UCS-2 although a GSM-7 character looks the same (typographic
 * quotes, dashes, ellipsis, non-breaking and other spaces, ...), with their GSM-7 replacement.
 */
export const GSM7_LOOKALIKES: Readonly<Record<string, string>> = {
  '\u2018': "'", '\u2019': "'", '\u201A': "'", '\u201B': "'", '\u2032': "'", '\u00B4': "'", '\u02BC': "'",
  '\u201C': '"', '\u201D': '"', '\u201E': '"', '\u2033': '"', '\u00AB': '"', '\u00BB': '"',
  '\u2013': '-', '\u2014': '-', '\u2012': '-', '\u2010': '-', '\u2011': '-', '\u2212': '-',
  '\u2026': '...', '\u00A0': ' ', '\u2009': ' ', '\u200A': ' ', '\u202F': ' ', '\u2002': ' ', '\u2003': ' ', '\u200B': '',
  '\u2022': '-', '\u00B7': '.', '\uFF0C': ',', '\u02C6': '^', '\u02DC': '~',
};

/**
 * When `body` is UCS-2 only because of GSM-7 look-alikes: the look-alikes found and the segments the
 * text would need with them replaced. Null when another character needs UCS-2 anyway (ɛ, ɔ, emoji).
 */
export function lookalikeRescue(body: string): { characters: string[]; gsmSegments: number } | null {
  const found = new Set<string>();
  let replaced = '';
  for (const ch of body) {
    const swap = GSM7_LOOKALIKES[ch];
    if (swap !== undefined) { found.add(ch); replaced += swap; } else replaced += ch;
  }
  if (found.size === 0) return null;
  const counted = smsSegments(replaced);
  return counted.encoding === 'GSM-7' ? { characters: [...found], gsmSegments: counted.segments } : null;
}
