import type { Container } from 'inversify';
import { CachedWebhookSubscriptions } from '../adapters/cache/cached-webhook-subscriptions.ts';
import { AesGcmCredentialCipher } from '../adapters/security/aes-gcm-credential-cipher.ts';
import { DnsEgressPolicy } from '../adapters/egress/dns-egress-policy.ts';
import { HttpWebhookSender } from '../adapters/webhooks/http-webhook-sender.ts';
import { TracedWebhookSender } from '../adapters/telemetry/traced-webhook-sender.ts';
import { tracingOn } from '../adapters/telemetry/tracing.ts';
import type { CredentialCipher } from '../core/ports/credential-cipher.ts';
import type { WebhookSender } from '../core/ports/webhook-sender.ts';
import type { WebhookSubscriptions } from '../core/ports/webhook-subscriptions.ts';
import type { WebhookAttemptDeps } from '../core/use-cases/webhooks/webhook-attempt.ts';
import type { Config } from './config.ts';
import { INFRA, token } from './tokens.ts';

export const WEBHOOKS = {
  sender: token<WebhookSender>('webhooks.Sender'),
  subscriptions: token<WebhookSubscriptions>('webhooks.Subscriptions'),
  cipher: token<CredentialCipher>('webhooks.SecretCipher'),
  attemptDeps: token<WebhookAttemptDeps>('webhooks.AttemptDeps'),
} as const;

/** The one egress policy for every tenant-influenced outbound connection: webhooks and own vendor accounts (docs/security.md). */
export const EGRESS = token<DnsEgressPolicy>('egress.Policy');

/** What both hosts need for webhooks: the egress policy and the sender guarded by it, the secret cipher, the subscription cache. */
export function bindWebhooks(container: Container, config: Config): void {
  container.bind(EGRESS).toConstantValue(new DnsEgressPolicy({ allowPrivateHosts: config.egressAllowPrivateHosts, vendorBaseUrls: config.vendorBaseUrls }));
  container.bind(WEBHOOKS.sender).toResolvedValue((egress) => {
    const sender = new HttpWebhookSender({ egress });
    return tracingOn() ? new TracedWebhookSender(sender) : sender; // docs/observability.md
  }, [EGRESS]).inSingletonScope();
  container.bind(WEBHOOKS.cipher).toConstantValue(new AesGcmCredentialCipher(config.encryptionKey));
  container.bind(WEBHOOKS.subscriptions).toResolvedValue((storage) => new CachedWebhookSubscriptions(() => storage.webhookEndpoints), [INFRA.storage]).inSingletonScope();
  container.bind(WEBHOOKS.attemptDeps).toResolvedValue((storage, sender, cipher, clock, email, subscriptions) => ({ storage, sender, cipher, clock, email, subscriptions }),
    [INFRA.storage, WEBHOOKS.sender, WEBHOOKS.cipher, INFRA.clock, INFRA.email, WEBHOOKS.subscriptions]).inSingletonScope();
}
