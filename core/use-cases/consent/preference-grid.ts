import { EXEMPT_CATEGORIES, type Channel } from '../../domain/channel.ts';
import { PREFERENCE_CATEGORIES, type Preference } from '../../domain/preferences.ts';
import type { Suppression } from '../../ports/suppression-repository.ts';

/**
 * The preference grid of a recipient: every opt-out-able category on each of `channels` (those it has
 * an address for), opted in unless a category entry of the suppression list says otherwise; whole-list
 * suppression shown apart.
 */
export function preferenceGrid(addresses: ReadonlyMap<Channel, string>, entries: readonly Suppression[], suppressed: boolean) {
  const preferences: Preference[] = [];
  for (const [channel, address] of addresses) {
    for (const category of PREFERENCE_CATEGORIES) {
      const out = entries.some((s) => s.category === category && s.channel === channel && (s.phone === address || s.email === address.toLowerCase()));
      preferences.push({ category, channel, optedIn: !out });
    }
  }
  return { channels: [...addresses.keys()], categories: PREFERENCE_CATEGORIES, exemptCategories: EXEMPT_CATEGORIES, suppressed, preferences };
}
