import { RecordingProvider } from '../../../adapters/memory/recording-provider.ts';
import { StaticProviderDirectory } from '../../../adapters/providers/static-provider-directory.ts';
import type { Channel } from '../../../core/domain/channel.ts';
import type { Contact } from '../../../core/domain/contact.ts';
import { newOrganization } from '../../../core/domain/organization.ts';
import type { Template } from '../../../core/domain/template.ts';
import { QUEUES } from '../../../core/ports/job-queue.ts';
import { AdvanceTrigger } from '../../../core/use-cases/events/advance-trigger.ts';
import type { TriggerDeps } from '../../../core/use-cases/events/trigger-steps.ts';
import { CreateEvent } from '../../../core/use-cases/events/create-event.ts';
import { TriggerEvent } from '../../../core/use-cases/events/trigger-event.ts';
import { ApplyDeliveryReport } from '../../../core/use-cases/messaging/apply-delivery-report.ts';
import { DeliverMessage } from '../../../core/use-cases/messaging/deliver-message.ts';
import { DEFAULT_FRAUD_LIMITS, type SendContext } from '../../../core/use-cases/messaging/send-context.ts';
import { buildCore } from '../../support/build-core.ts';
import { aTemplateRecord } from '../../support/template-record.ts';

/** The event pipeline on in-memory adapters: one organization with a wallet and a recording provider per channel. */
export async function buildEvents(options: { balance?: number; inline?: boolean } = {}) {
  const core = buildCore();
  const now = core.clock.now();
  const organizationId = core.ids.next();
  await core.storage.organizations.insert(newOrganization(organizationId, 'Kente Foods', now));
  await core.storage.wallets.create(organizationId, now);
  const balance = options.balance ?? 10_000;
  if (balance > 0) await core.storage.wallets.update(organizationId, () => ({ amount: balance, kind: 'TOP_UP', reference: 'seed', description: 'seed' }), now);
  const providers = {
    SMS: new RecordingProvider('SMS', 'live-sms'), WHATSAPP: new RecordingProvider('WHATSAPP', 'live-whatsapp'),
    EMAIL: new RecordingProvider('EMAIL', 'live-email'), PUSH: new RecordingProvider('PUSH', 'live-push'), VOICE: new RecordingProvider('VOICE', 'live-voice'),
  } satisfies Record<Exclude<Channel, 'IN_APP'>, RecordingProvider>;
  const directory = new StaticProviderDirectory(Object.values(providers), []);
  const deliver = new DeliverMessage({ storage: core.storage, providers: directory, clock: core.clock, ids: core.ids, maxAttempts: 3, leaseSeconds: 60 });
  const deps: TriggerDeps = {
    storage: core.storage, pricing: core.storage.pricing, clock: core.clock, ids: core.ids, secrets: core.secrets, fraud: DEFAULT_FRAUD_LIMITS,
    ...(options.inline === false ? {} : { deliverNow: (id: string) => deliver.execute(id) }),
  };
  const ctx: SendContext = { organizationId, userId: null, apiKeyId: 'key-live', isSandbox: false };
  const scope = { organizationId };
  let n = 0;
  return {
    core, organizationId, ctx, scope, providers, deliver, deps,
    trigger: new TriggerEvent(deps),
    advance: new AdvanceTrigger(deps),
    createEvent: new CreateEvent(core),
    apply: new ApplyDeliveryReport(core),
    async template(fields: Partial<Template> = {}): Promise<Template> {
      const template = aTemplateRecord(core.ids.next(), organizationId, now,
        { body: 'Hi {{firstName}}, order {{order}} has shipped', variables: ['firstName', 'order'], ...fields });
      await core.storage.templates.insert(template);
      return template;
    },
    async contact(fields: Partial<Contact> = {}): Promise<Contact> {
      n += 1;
      const contact: Contact = {
        id: core.ids.next(), organizationId, firstName: 'Ama', lastName: 'Mensah', phone: `+23324${String(1_000_000 + n).padStart(7, '0')}`,
        email: `ama${n}@example.com`, countryCode: 'GH', tags: [], fcmToken: null, attributes: {}, optedOutAt: null, createdAt: now, updatedAt: now, ...fields,
      };
      await core.storage.contacts.insert(contact);
      return contact;
    },
    jobs(queue: (typeof QUEUES)[keyof typeof QUEUES]) { return core.storage.jobs.take(queue); },
    async balance(): Promise<number> { return (await core.storage.wallets.get(organizationId))!.balance; },
  };
}
export type Events = Awaited<ReturnType<typeof buildEvents>>;

export const failPermanently = () => ({ accepted: false as const, retryable: false, errorCode: 'VENDOR_REJECTED', errorMessage: 'destination refused' });
