import type { RuleMatcher } from './types.ts';

/** Compiled regular expressions per phrase matcher (rules are module constants, so this stays small). */
const compiled = new WeakMap<object, RegExp>();

function phraseRegex(matcher: Extract<RuleMatcher, { kind: 'phrases' }>): RegExp {
  let regex = compiled.get(matcher);
  if (!regex) {
    const alternatives = matcher.phrases.map((phrase) => phrase.trim().split(/\s+/).map(escape).join('\\s+'));
    regex = new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}])`, matcher.caseSensitive ? 'u' : 'iu');
    compiled.set(matcher, regex);
  }
  return regex;
}

/** The text a matcher finds in `message`, or null. */
export function findMatch(matcher: RuleMatcher, message: string): string | null {
  switch (matcher.kind) {
    case 'phrases': return phraseRegex(matcher).exec(message)?.[0] ?? null;
    case 'pattern': return matcher.pattern.exec(message)?.[0] ?? null;
    case 'all': {
      const parts: string[] = [];
      for (const inner of matcher.of) {
        const found = findMatch(inner, message);
        if (found === null) return null;
        parts.push(found);
      }
      return parts.join(' … ');
    }
    case 'lookalike': return findLookalike(matcher.names, message);
  }
}

const LEET: Readonly<Record<string, string>> = { 0: 'o', 1: 'i', 3: 'e', 4: 'a', 5: 's', 7: 't', '@': 'a', $: 's', '|': 'l' };

/**
 * A word that imitates a name without being it: digits or
 * symbols for letters ("M0M0", "Ec0bank") or, for names of six letters or
 * more, one letter changed, added, dropped or swapped ("Ecobnak", "Vodafon"). The exact name, in
 * any letter case, is not an imitation.
 */
export function findLookalike(names: readonly string[], message: string): string | null {
  for (const [word] of message.matchAll(/[\p{L}\p{N}@$|]+/gu)) {
    if (imitates(word, names)) return word;
  }
  return null;
}

function imitates(word: string, names: readonly string[]): boolean {
  const lower = word.toLowerCase();
  if (!/\p{L}/u.test(lower) || names.includes(lower)) return false;
  const plain = unleet(lower);
  if (plain !== lower && (names.includes(plain) || names.includes(plain.replaceAll('i', 'l')))) return true;
  return names.some((name) => name.length >= 6 && Math.abs(plain.length - name.length) <= 1 && editDistanceIsOne(plain, name));
}

function unleet(word: string): string {
  return [...word.toLowerCase()].map((c) => LEET[c] ?? c).join('');
}

/** True when a and b differ by exactly one insertion, deletion, substitution or adjacent swap. */
function editDistanceIsOne(a: string, b: string): boolean {
  if (a === b) return false;
  if (a.length === b.length) {
    const diffs = [...a].flatMap((c, i) => (c === b[i] ? [] : [i]));
    if (diffs.length === 1) return true;
    return diffs.length === 2 && diffs[1] === diffs[0]! + 1 && a[diffs[0]!] === b[diffs[1]!] && a[diffs[1]!] === b[diffs[0]!];
  }
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  for (let i = 0; i < long.length; i += 1) {
    if (long.slice(0, i) + long.slice(i + 1) === short) return true;
  }
  return false;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
