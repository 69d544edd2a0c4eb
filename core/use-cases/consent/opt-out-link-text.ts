import type { Channel, TemplateCategory } from '../../domain/channel.ts';
import type { OptOutLinkSigner } from '../../ports/opt-out-links.ts';

/** The placeholder a body may place its opt-out link with; appended when a marketing body has none. */
export const OPT_OUT_PLACEHOLDER = 'optOutUrl';
const HAS_PLACEHOLDER = /\{\{\s*optOutUrl\s*\}\}/;

/** Channels an opt-out link can be followed from: text a person reads with a link in it. */
export const LINK_CHANNELS: readonly Channel[] = ['SMS', 'WHATSAPP', 'EMAIL'];

/** The opt-out link of one organization's recipients (docs/consent.md). */
export interface OptOutLinks {
  linkFor(channel: Channel, recipient: string): { token: string; url: string };
}

/** The `optOut` option of prepareMessage for an organization, when the deps carry a signer. */
export function optOutOption(deps: { optOutLinks?: OptOutLinkSigner | undefined }, organizationId: string): OptOutLinks | undefined {
  return deps.optOutLinks ? optOutLinksOf(deps.optOutLinks, organizationId) : undefined;
}

export function optOutLinksOf(signer: OptOutLinkSigner, organizationId: string): OptOutLinks {
  return {
    linkFor(channel, recipient) {
      const token = signer.token(organizationId, channel, recipient);
      return { token, url: signer.url(token) };
    },
  };
}

/**
 * Where a message's body gets its opt-out link: a MARKETING message on a link channel always carries
 * one (`{{optOutUrl}}` where the body places it, else appended); any other body may place it with the
 * placeholder. Returns the body source to render, the variables with `optOutUrl`, and the token used
 * (null: no link).
 */
export function withOptOutLink(source: string, variables: Readonly<Record<string, string>>, channel: Channel, category: TemplateCategory,
  link: { token: string; url: string } | null): { source: string; variables: Record<string, string>; token: string | null } {
  const placed = HAS_PLACEHOLDER.test(source);
  if (!link || !LINK_CHANNELS.includes(channel) || (!placed && category !== 'MARKETING')) return { source, variables: { ...variables }, token: null };
  const withLink = placed ? source : `${source}${footer(channel)}`;
  return { source: withLink, variables: { ...variables, [OPT_OUT_PLACEHOLDER]: link.url }, token: link.token };
}

function footer(channel: Channel): string {
  if (channel === 'EMAIL') return '\n<p style="font-size:12px;color:#666">Don\'t want these emails? <a href="{{optOutUrl}}">Unsubscribe or choose what you get</a>.</p>';
  return '\nOpt out: {{optOutUrl}}';
}
