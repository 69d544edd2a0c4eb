import { webhookEndpointView } from '../../domain/webhook.ts';
import type { Storage } from '../../ports/storage.ts';

export const MAX_WEBHOOK_ENDPOINTS_LISTED = 100;

/** GET /webhook-endpoints: the organization's endpoints (active and not), newest first, without secrets. */
export class ListWebhookEndpoints {
  readonly #deps: { storage: Pick<Storage, 'webhookEndpoints'> };
  constructor(deps: { storage: Pick<Storage, 'webhookEndpoints'> }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }) {
    return (await this.#deps.storage.webhookEndpoints.list(scope.organizationId, MAX_WEBHOOK_ENDPOINTS_LISTED)).map(webhookEndpointView);
  }
}
