import type { Channel } from '../../domain/channel.ts';
import type { OwnAccountPricing } from './accept-messages.ts';

/**
 * What a live message costs on its route (docs/providers.md): the own-account fee when the
 * organization's own vendor accounts serve its channel and country (never more than the platform
 * price), else the platform price. Sends, the preview and the campaign estimate all price through it.
 */
export function routePrice(own: OwnAccountPricing | undefined, organizationId: string, message: { channel: Channel; country: string | null; price: number }): { price: number; ownAccount: boolean } {
  const ownAccount = own !== undefined && own.routes.ownsRoute(organizationId, message.channel, message.country);
  return { price: ownAccount ? Math.min(own.fee, message.price) : message.price, ownAccount };
}
