import * as v from 'valibot';
import { parseInput } from '../../validation.ts';
import { MAX_WEBHOOK_ENDPOINTS, webhookEndpointView, webhookSecretFromToken, type WebhookEndpoint } from '../../domain/webhook.ts';
import type { Clock } from '../../ports/clock.ts';
import type { CredentialCipher } from '../../ports/credential-cipher.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Secrets } from '../../ports/secrets.ts';
import type { Storage } from '../../ports/storage.ts';
import type { WebhookSender } from '../../ports/webhook-sender.ts';
import type { WebhookSubscriptions } from '../../ports/webhook-subscriptions.ts';
import { checkWebhookTarget, requireUrl, tooManyEndpoints, webhookEventsSchema, webhookUrlSchema } from './webhook-input.ts';

/** Spec "Webhook endpoint": url required (URL_REQUIRED), events optional. */
export const CreateWebhookEndpointInput = v.object({
  url: webhookUrlSchema,
  events: v.optional(webhookEventsSchema, []),
});

export interface CreateWebhookEndpointDeps {
  storage: Storage;
  ids: IdGenerator;
  clock: Clock;
  secrets: Secrets;
  cipher: CredentialCipher;
  sender: WebhookSender;
  subscriptions?: WebhookSubscriptions;
}

/**
 * POST /webhook-endpoints. Generates the signing secret (`whsec_` + 32 random bytes), stores it
 * encrypted and returns it this once. The URL's host must resolve to public addresses only (SSRF).
 * Errors: URL_REQUIRED, VALIDATION_ERROR (url not http(s) or not public, unknown event kind, more
 * than MAX_WEBHOOK_ENDPOINTS endpoints).
 */
export class CreateWebhookEndpoint {
  readonly #deps: CreateWebhookEndpointDeps;
  constructor(deps: CreateWebhookEndpointDeps) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, raw: unknown) {
    requireUrl(raw);
    const input = parseInput(CreateWebhookEndpointInput, raw);
    const { storage, ids, clock, secrets, cipher, sender } = this.#deps;
    await checkWebhookTarget(sender, input.url);
    const secret = webhookSecretFromToken(secrets.randomToken(32));
    const now = clock.now();
    const endpoint: WebhookEndpoint = {
      id: ids.next(), organizationId: scope.organizationId, url: input.url, events: input.events, isActive: true,
      secretCiphertext: cipher.encrypt(secret), previousSecretCiphertext: null, previousSecretExpiresAt: null,
      disabledReason: null, failingSince: null, createdAt: now, updatedAt: now,
    };
    if (await storage.webhookEndpoints.writeWithinLimit(endpoint, 'insert', MAX_WEBHOOK_ENDPOINTS) === 'LIMIT') throw tooManyEndpoints();
    this.#deps.subscriptions?.invalidate(scope.organizationId);
    return { ...webhookEndpointView(endpoint), secret };
  }
}
