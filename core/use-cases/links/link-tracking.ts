import type { Channel } from '../../domain/channel.ts';
import type { LinkSettings } from '../../domain/link-settings.ts';
import { isHtmlBody, isUnder, replaceUrls, type TrackedLinkDraft } from '../../domain/tracked-links.ts';
import type { LinkCodes } from '../../ports/link-codes.ts';
import type { LinkSettingsRepository } from '../../ports/link-settings-repository.ts';

/** Channels whose bodies get tracked links: text a person reads and follows links from. */
export const TRACKED_CHANNELS: readonly Channel[] = ['SMS', 'WHATSAPP', 'EMAIL'];

/** What the send pipeline needs to track links (SendDeps.linkTracking); absent: no link is tracked. */
export interface LinkTrackingDeps {
  /** The platform switch (LINK_TRACKING): off, no organization's links are tracked. */
  enabled: boolean;
  settings: Pick<LinkSettingsRepository, 'find'> & { forget?(organizationId: string): void };
  codes: LinkCodes;
  /** The platform's link base, e.g. https://nkra.example/l (LINK_BASE_URL). */
  platformBase: string;
  /** Addresses never tracked: our own link bases and pages (opt-out links, PUBLIC_URL/u/). */
  untracked: readonly string[];
}

/** The `links` option of prepareMessage for one organization's send. */
export interface LinkTrackingOption {
  /** Where new short links point: the verified custom domain's base, else the platform's. */
  base: string;
  codes: LinkCodes;
  untracked: readonly string[];
  untrackedTemplateIds: ReadonlySet<string>;
  /** Add the open pixel to HTML emails. */
  emailOpens: boolean;
}

/** The organization's link tracking for a send, or undefined when it is off (docs/links.md). */
export async function linkTrackingOption(deps: { linkTracking?: LinkTrackingDeps | undefined }, organizationId: string,
  /** Inside a transaction: read through it (tx.linkSettings), never beside it. */
  reader?: Pick<LinkSettingsRepository, 'find'>): Promise<LinkTrackingOption | undefined> {
  const tracking = deps.linkTracking;
  if (!tracking?.enabled) return undefined;
  const settings = await (reader ?? tracking.settings).find(organizationId);
  if (settings && !settings.trackLinks && !settings.trackEmailOpens) return undefined;
  return optionOf(tracking, settings);
}

function optionOf(tracking: LinkTrackingDeps, settings: LinkSettings | null): LinkTrackingOption {
  const custom = settings?.customDomain && settings.domainVerifiedAt ? `https://${settings.customDomain}/l` : null;
  return {
    base: custom ?? tracking.platformBase, codes: tracking.codes,
    untracked: [...tracking.untracked, `${tracking.platformBase}/`, ...(custom ? [`${custom}/`] : [])],
    untrackedTemplateIds: new Set(settings && !settings.trackLinks ? ['*'] : settings?.untrackedTemplateIds ?? []),
    emailOpens: settings?.trackEmailOpens ?? false,
  };
}

/** The marker URL of an email's open pixel (a tracked link that is never redirected). */
export const OPEN_PIXEL_URL = 'open:';

/**
 * A rendered body with its URLs replaced by short links (and, for an HTML email with opens on, the
 * pixel appended), and the links to record with the message. Unchanged when the channel is not
 * tracked or the template opted out.
 */
export function trackBody(body: string, channel: Channel, templateId: string | null, option: LinkTrackingOption | undefined): { body: string; links: TrackedLinkDraft[] } {
  if (!option || !TRACKED_CHANNELS.includes(channel)) return { body, links: [] };
  const html = channel === 'EMAIL' && isHtmlBody(body);
  const off = option.untrackedTemplateIds.has('*') || (templateId !== null && option.untrackedTemplateIds.has(templateId));
  const tracked = off ? { body, links: [] as TrackedLinkDraft[] } : replaceUrls(body, html, (url) => {
    if (isUnder(url, option.untracked)) return null;
    const code = option.codes.next();
    return { code, shortUrl: `${option.base}/${code}` };
  });
  if (!html || !option.emailOpens) return tracked;
  const code = option.codes.next();
  const pixel = `<img src="${option.base}/o/${code}.gif" width="1" height="1" alt="" style="display:block;border:0">`;
  const at = tracked.body.search(/<\/body>/i);
  return {
    body: at >= 0 ? `${tracked.body.slice(0, at)}${pixel}${tracked.body.slice(at)}` : `${tracked.body}${pixel}`,
    links: [...tracked.links, { code, url: OPEN_PIXEL_URL }],
  };
}
