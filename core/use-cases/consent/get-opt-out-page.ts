import { AppError } from '../../errors.ts';
import type { Channel } from '../../domain/channel.ts';
import type { OptOutLink, OptOutLinkSigner } from '../../ports/opt-out-links.ts';
import type { Repositories } from '../../ports/storage.ts';
import { preferenceGrid } from './preference-grid.ts';

export interface OptOutPageDeps { storage: Repositories; links: OptOutLinkSigner }

/**
 * The hosted opt-out page behind a link (GET /u/{token}, no login): who sends, to which (masked)
 * address, and the recipient's preferences on the link's channel. A token of the wrong shape, or one
 * no message ever carried, is NOT_FOUND: the page never says more about a token it did not issue.
 */
export class GetOptOutPage {
  readonly #deps: OptOutPageDeps;
  constructor(deps: OptOutPageDeps) { this.#deps = deps; }

  async execute(token: string) {
    const link = await findLink(this.#deps, token);
    const organization = await this.#deps.storage.organizations.findById(link.organizationId);
    if (!organization) throw new AppError('NOT_FOUND', 'This link is not valid');
    const addresses = new Map<Channel, string>([[link.channel, link.recipient]]);
    const entries = await this.#deps.storage.suppressions.findPreferenceEntries(link.organizationId, [link.recipient]);
    const suppressed = (await this.#deps.storage.suppressions.findMatch(link.organizationId, link.channel, link.recipient)) !== null;
    return { organizationName: organization.name, channel: link.channel, recipient: maskAddress(link.recipient), ...preferenceGrid(addresses, entries, suppressed) };
  }
}

export async function findLink(deps: OptOutPageDeps, token: string): Promise<OptOutLink> {
  const link = deps.links.wellFormed(token) ? await deps.storage.optOutLinks.findByToken(token) : null;
  if (!link) throw new AppError('NOT_FOUND', 'This link is not valid');
  return link;
}

/** "+233 24•••••67", "a•••@example.com": enough for a person to recognise their own address. */
export function maskAddress(address: string): string {
  const at = address.indexOf('@');
  if (at > 0) return `${address[0]}•••${address.slice(at)}`;
  return address.length > 6 ? `${address.slice(0, 6)}${'•'.repeat(Math.max(1, address.length - 8))}${address.slice(-2)}` : address;
}
