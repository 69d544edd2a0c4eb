import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import { CHANNELS } from '../../domain/channel.ts';
import { ghsToPesewas } from '../../domain/money.ts';
import { isKnownNetwork, networksOf } from '../../domain/mobile-network.ts';
import { MAX_NETWORK_ROUTES } from '../../ports/network-route-repository.ts';
import type { AdminActor } from '../admin/admin-actor.ts';
import { networkRouteView, recordPinShift, type RoutingAdminDeps } from './routing-admin.ts';

const providerName = v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(100));

export const SaveNetworkRouteInput = v.object({
  channel: v.picklist(CHANNELS, `must be one of ${CHANNELS.join(', ')}`),
  country: v.pipe(v.string('must be a string'), v.trim(), v.toUpperCase(), v.regex(/^[A-Z]{2}$/, 'must be an ISO 3166 alpha-2 country code')),
  network: v.pipe(v.string('must be a string'), v.trim(), v.toUpperCase(), v.minLength(1), v.maxLength(20)),
  /** Platform provider names, first preferred. */
  providers: v.optional(v.pipe(v.array(providerName, 'must be an array of provider names'), v.maxLength(20, 'at most 20 providers')), []),
  /** GHS per unit (segment for SMS); null: the country's pricing rule. */
  pricePerUnit: v.optional(v.nullable(v.pipe(v.number('must be a number'), v.minValue(0, 'must not be negative'), v.maxValue(100, 'must be at most 100'))), null),
  /** A provider name always tried first for this network, whatever learning says; null unpins. */
  pinned: v.optional(v.nullable(providerName), null),
});

/**
 * PUT /admin/network-routes: creates or replaces the route of (channel, country, network): providers
 * in order, a price per unit and a pin (docs/routing.md). The network must be one of the country's
 * numbering plan; every provider (and the pin) an existing platform provider of the channel.
 * VALIDATION_ERROR names the field; LIMIT_REACHED past MAX_NETWORK_ROUTES. Audited as network_route.save.
 */
export class SaveNetworkRoute {
  readonly #deps: RoutingAdminDeps;
  constructor(deps: RoutingAdminDeps) { this.#deps = deps; }

  async execute(admin: AdminActor, raw: unknown) {
    const input = parseInput(SaveNetworkRouteInput, raw);
    if (!isKnownNetwork(input.country, input.network)) {
      const known = networksOf(input.country);
      throw invalid('network', known.length > 0 ? `must be one of ${known.join(', ')} for ${input.country}` : `no numbering plan is known for ${input.country}`);
    }
    const platform = (await this.#deps.providers.list()).filter((p) => !p.organizationId && p.channel === input.channel).map((p) => p.name);
    const unknown = input.providers.filter((name) => !platform.includes(name));
    if (unknown.length > 0) throw invalid('providers', `not platform ${input.channel} providers: ${unknown.join(', ')}`);
    if (input.pinned && !platform.includes(input.pinned)) throw invalid('pinned', `not a platform ${input.channel} provider: ${input.pinned}`);
    const price = input.pricePerUnit === null ? null : ghsToPesewas(input.pricePerUnit);
    if (input.pricePerUnit !== null && price === null) throw invalid('pricePerUnit', 'must be a whole number of pesewas (at most 2 decimals)');
    const existing = await this.#deps.routes.find(input.channel, input.country, input.network);
    if (!existing && (await this.#deps.routes.count()) >= MAX_NETWORK_ROUTES) throw new AppError('LIMIT_REACHED', `At most ${MAX_NETWORK_ROUTES} network routes`);
    const now = this.#deps.clock.now();
    const saved = await this.#deps.routes.save({
      id: existing?.id ?? this.#deps.ids.next(), channel: input.channel, country: input.country, network: input.network, providers: [...new Set(input.providers)],
      pricePerUnit: price, pinned: input.pinned, createdAt: existing?.createdAt ?? now, updatedAt: now,
    });
    await this.#deps.storage.auditLog.record({
      id: this.#deps.ids.next(), actorUserId: admin.userId, impersonatorUserId: null, organizationId: null, action: 'network_route.save',
      target: `network_route:${saved.id}`, details: { channel: saved.channel, country: saved.country, network: saved.network, providers: saved.providers, pricePerUnit: saved.pricePerUnit, pinned: saved.pinned },
      createdAt: now,
    });
    if ((existing?.pinned ?? null) !== saved.pinned) await recordPinShift(this.#deps, saved, existing?.pinned ?? null, now);
    await this.#deps.onChanged?.();
    return networkRouteView(saved);
  }
}

function invalid(field: string, message: string): AppError {
  return new AppError('VALIDATION_ERROR', `${field} ${message}`, { fieldErrors: { [field]: [message] }, formErrors: [] });
}
