import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import { MAX_WEBHOOK_ENDPOINTS, webhookEndpointView } from '../../domain/webhook.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';
import type { WebhookSender } from '../../ports/webhook-sender.ts';
import type { WebhookSubscriptions } from '../../ports/webhook-subscriptions.ts';
import { checkWebhookTarget, tooManyEndpoints, webhookEventsSchema, webhookUrlSchema } from './webhook-input.ts';

export const UpdateWebhookEndpointInput = v.object({
  url: v.optional(webhookUrlSchema),
  events: v.optional(webhookEventsSchema),
  isActive: v.optional(v.boolean('must be true or false')),
});

/**
 * PATCH /webhook-endpoints/{id}: url (checked like on creation), events, isActive. Re-activating
 * clears the reason the service disabled it and the failing streak, and counts against the limit of
 * MAX_WEBHOOK_ENDPOINTS active endpoints. Errors: NOT_FOUND, VALIDATION_ERROR.
 */
export class UpdateWebhookEndpoint {
  readonly #deps: { storage: Storage; clock: Clock; sender: WebhookSender; subscriptions?: WebhookSubscriptions };
  constructor(deps: { storage: Storage; clock: Clock; sender: WebhookSender; subscriptions?: WebhookSubscriptions }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, id: string, raw: unknown) {
    const input = parseInput(UpdateWebhookEndpointInput, raw);
    const { storage, clock, sender } = this.#deps;
    const endpoint = await storage.webhookEndpoints.find(scope.organizationId, id);
    if (!endpoint) throw new AppError('NOT_FOUND', 'Webhook endpoint not found');
    if (input.url !== undefined && input.url !== endpoint.url) await checkWebhookTarget(sender, input.url);
    const reactivated = input.isActive === true && !endpoint.isActive;
    const updated = {
      ...endpoint, url: input.url ?? endpoint.url, events: input.events ?? endpoint.events, isActive: input.isActive ?? endpoint.isActive,
      ...(reactivated ? { disabledReason: null, failingSince: null } : {}), updatedAt: clock.now(),
    };
    // Re-activation counts against the active endpoints' limit, like a creation.
    const written = reactivated ? await storage.webhookEndpoints.writeWithinLimit(updated, 'save', MAX_WEBHOOK_ENDPOINTS)
      : (await storage.webhookEndpoints.save(updated)) ? 'WRITTEN' : 'NOT_FOUND';
    if (written === 'LIMIT') throw tooManyEndpoints();
    if (written === 'NOT_FOUND') throw new AppError('NOT_FOUND', 'Webhook endpoint not found');
    this.#deps.subscriptions?.invalidate(scope.organizationId);
    return webhookEndpointView(updated);
  }
}
