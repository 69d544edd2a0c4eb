import { isAppError } from '../../errors.ts';
import { PREFERENCE_CATEGORIES, type Preference, type PreferenceSource } from '../../domain/preferences.ts';
import type { Channel, TemplateCategory } from '../../domain/channel.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { OptOutLinkSigner } from '../../ports/opt-out-links.ts';
import type { Storage } from '../../ports/storage.ts';
import { applyPreferenceChanges } from './apply-preference-changes.ts';
import { findLink } from './get-opt-out-page.ts';

/** What a submission of the hosted page asks for. */
export type OptOutChoice =
  /** The one button, or RFC 8058 one-click (`List-Unsubscribe=One-Click`): no more MARKETING on the link's channel. */
  | { kind: 'unsubscribe'; source: Extract<PreferenceSource, 'link' | 'one-click'> }
  /** The preference form: exactly these categories stay opted in on the link's channel, the others are opted out. */
  | { kind: 'preferences'; optedIn: readonly string[] };

/**
 * POST /u/{token}: records the recipient's choice (docs/consent.md): category entries of the
 * suppression list, a `contact.opted_out` webhook for real opt-outs and an audit entry, in one
 * transaction. Replaying a submission changes nothing and emits nothing; concurrent submissions of one
 * link are idempotent too (the loser of a race on the same suppression entry runs again and finds it
 * there, changing nothing), so the page always renders. Unknown category names in
 * the form are ignored (a tampered form can only opt out of real categories).
 */
export class SubmitOptOutPage {
  readonly #deps: { storage: Storage; links: OptOutLinkSigner; ids: IdGenerator; clock: Clock };
  constructor(deps: { storage: Storage; links: OptOutLinkSigner; ids: IdGenerator; clock: Clock }) { this.#deps = deps; }

  async execute(token: string, choice: OptOutChoice): Promise<{ changed: number; channel: Channel }> {
    const link = await findLink(this.#deps, token);
    const changes: Preference[] = choice.kind === 'unsubscribe'
      ? [{ category: 'MARKETING', channel: link.channel, optedIn: false }]
      : PREFERENCE_CATEGORIES.map((category: TemplateCategory) => ({ category, channel: link.channel, optedIn: choice.optedIn.includes(category) }));
    const apply = () => this.#deps.storage.transaction(async (tx) => {
      const [contact] = await tx.contacts.findByAddresses(link.organizationId, link.channel === 'EMAIL' ? [] : [link.recipient], link.channel === 'EMAIL' ? [link.recipient] : []);
      return applyPreferenceChanges(tx, this.#deps, { organizationId: link.organizationId, addresses: new Map([[link.channel, link.recipient]]), contactId: contact?.id ?? null },
        changes, choice.kind === 'unsubscribe' ? choice.source : 'link', null);
    });
    for (let attempt = 1; ; attempt += 1) {
      try {
        return { changed: await apply(), channel: link.channel };
      } catch (error) {
        // A concurrent submission inserted the same entry first (CONFLICT): run again against what it committed.
        if (!isAppError(error) || error.code !== 'CONFLICT' || attempt >= 5) throw error;
      }
    }
  }
}
