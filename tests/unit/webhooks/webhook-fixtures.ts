import { CachedWebhookSubscriptions } from '../../../adapters/cache/cached-webhook-subscriptions.ts';
import { AesGcmCredentialCipher } from '../../../adapters/security/aes-gcm-credential-cipher.ts';
import { DnsEgressPolicy } from '../../../adapters/egress/dns-egress-policy.ts';
import { HttpWebhookSender } from '../../../adapters/webhooks/http-webhook-sender.ts';
import type { OutboundEvent, OutboundEventKind } from '../../../core/domain/outbound-event.ts';
import { newOrganization } from '../../../core/domain/organization.ts';
import { QUEUES } from '../../../core/ports/job-queue.ts';
import { CreateWebhookEndpoint } from '../../../core/use-cases/webhooks/create-webhook-endpoint.ts';
import { DeliverWebhooks } from '../../../core/use-cases/webhooks/deliver-webhooks.ts';
import { DispatchOutboundEvents, type DispatchSummary } from '../../../core/use-cases/webhooks/dispatch-outbound-events.ts';
import { publishOutboundEvent } from '../../../core/use-cases/webhooks/publish-outbound-event.ts';
import type { WebhookAttemptDeps } from '../../../core/use-cases/webhooks/webhook-attempt.ts';
import { buildCore } from '../../support/build-core.ts';

/** Webhooks on in-memory storage and a fixed clock, sending over real HTTP to local receivers. */
export async function buildWebhooks() {
  const core = buildCore();
  const now = core.clock.now();
  const organizationId = core.ids.next();
  await core.storage.organizations.insert(newOrganization(organizationId, 'Kente Foods', now));
  const ownerId = core.ids.next();
  await core.storage.users.insert({ id: ownerId, email: 'owner@kente.example', passwordHash: 'x', firstName: 'Ama', lastName: 'Mensah', platformRole: null, createdAt: now });
  await core.storage.memberships.insert({ id: core.ids.next(), organizationId, userId: ownerId, role: 'TENANT_OWNER', createdAt: now });
  const cipher = new AesGcmCredentialCipher('1'.repeat(64));
  const sender = new HttpWebhookSender({ egress: new DnsEgressPolicy({ allowPrivateHosts: ['127.0.0.1', 'localhost'] }), timeoutMs: 2_000, now: () => core.clock.now().getTime() });
  const subscriptions = new CachedWebhookSubscriptions(() => core.storage.webhookEndpoints, 60_000);
  const deps: WebhookAttemptDeps = { storage: core.storage, sender, cipher, clock: core.clock, email: core.email, subscriptions };
  const create = new CreateWebhookEndpoint({ ...deps, ids: core.ids, secrets: core.secrets });
  const dispatch = new DispatchOutboundEvents({ ...deps, ids: core.ids });
  const deliverWebhooks = new DeliverWebhooks(deps);
  return {
    core, organizationId, deps, subscriptions, create: (body: Record<string, unknown>) => create.execute({ organizationId }, body), dispatch, deliverWebhooks,
    /** Runs one webhook-deliver job of this organization. */
    deliver: async (deliveryId: string) => (await deliverWebhooks.execute([{ organizationId, deliveryId }]))[0]!,
    async publish(kind: OutboundEventKind = 'contact.opted_out', data: Record<string, unknown> = { contactId: 'c-1' }): Promise<OutboundEvent> {
      const event = { id: core.ids.next(), organizationId, kind, data, occurredAt: core.clock.now() };
      await core.storage.transaction((tx) => publishOutboundEvent(tx, event));
      return event;
    },
    /** Runs every queued webhook-dispatch job, as one batch (fan-out and first attempts). */
    async runDispatch(): Promise<DispatchSummary> {
      const jobs = core.storage.jobs.take(QUEUES.webhookDispatch);
      return dispatch.execute(jobs.map((job) => ({ organizationId: String(job.data['organizationId']), eventId: String(job.data['eventId']) })));
    },
    takeDeliverJobs() { return core.storage.jobs.take(QUEUES.webhookDeliver); },
  };
}
