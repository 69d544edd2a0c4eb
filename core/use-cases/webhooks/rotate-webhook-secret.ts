import { AppError } from '../../errors.ts';
import { WEBHOOK_SECRET_GRACE_SECONDS, webhookEndpointView, webhookSecretFromToken } from '../../domain/webhook.ts';
import type { Clock } from '../../ports/clock.ts';
import type { CredentialCipher } from '../../ports/credential-cipher.ts';
import type { Secrets } from '../../ports/secrets.ts';
import type { Storage } from '../../ports/storage.ts';

/**
 * POST /webhook-endpoints/{id}/rotate-secret: a new signing secret, returned this once. For
 * WEBHOOK_SECRET_GRACE_SECONDS (24 h) deliveries carry X-Service-Signature (new secret) and
 * X-Service-Signature-Previous (old secret), and webhook-signature holds both `v1,` entries, so receivers can switch keys without losing a delivery.
 * Rotating again during a grace period replaces the previous secret with the current one. Errors: NOT_FOUND.
 */
export class RotateWebhookSecret {
  readonly #deps: { storage: Storage; clock: Clock; secrets: Secrets; cipher: CredentialCipher };
  constructor(deps: { storage: Storage; clock: Clock; secrets: Secrets; cipher: CredentialCipher }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, id: string) {
    const { storage, clock, secrets, cipher } = this.#deps;
    const endpoint = await storage.webhookEndpoints.find(scope.organizationId, id);
    if (!endpoint) throw new AppError('NOT_FOUND', 'Webhook endpoint not found');
    const now = clock.now();
    const secret = webhookSecretFromToken(secrets.randomToken(32));
    const updated = {
      ...endpoint, secretCiphertext: cipher.encrypt(secret), previousSecretCiphertext: endpoint.secretCiphertext,
      previousSecretExpiresAt: new Date(now.getTime() + WEBHOOK_SECRET_GRACE_SECONDS * 1000), updatedAt: now,
    };
    await storage.webhookEndpoints.save(updated);
    return { ...webhookEndpointView(updated), secret };
  }
}
