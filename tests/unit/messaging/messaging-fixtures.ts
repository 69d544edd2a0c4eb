import { RecordingProvider } from '../../../adapters/memory/recording-provider.ts';
import { StaticProviderDirectory } from '../../../adapters/providers/static-provider-directory.ts';
import type { Channel } from '../../../core/domain/channel.ts';
import type { Message } from '../../../core/domain/message.ts';
import { newOrganization } from '../../../core/domain/organization.ts';
import type { LedgerEntry } from '../../../core/domain/wallet.ts';
import type { ChannelProvider } from '../../../core/ports/channel-provider.ts';
import type { Template } from '../../../core/domain/template.ts';
import { QUEUES } from '../../../core/ports/job-queue.ts';
import { DeliverMessage } from '../../../core/use-cases/messaging/deliver-message.ts';
import { SendBulkMessages } from '../../../core/use-cases/messaging/send-bulk-messages.ts';
import { DEFAULT_FRAUD_LIMITS, type FraudLimits, type SendContext } from '../../../core/use-cases/messaging/send-context.ts';
import { SendMessage, type SendDeps } from '../../../core/use-cases/messaging/send-message.ts';
import { buildCore, type TestCore } from '../../support/build-core.ts';
import { aTemplateRecord } from '../../support/template-record.ts';

/** A Ghanaian mobile number; `n` varies the last digits. */
export function ghPhone(n = 0): string {
  return `+23324${String(1_000_000 + n).padStart(7, '0')}`;
}

export interface PipelineOptions {
  fraud?: Partial<FraudLimits>;
  maxAttempts?: number;
  /** Pesewas credited to the organization's wallet (default 10,000 = GHS 100). */
  balance?: number;
  /** Live SMS providers in failover order (default: one RecordingProvider). */
  liveSms?: RecordingProvider[];
  /** Live PUSH providers in failover order (default: none). */
  livePush?: ChannelProvider[];
  /** Sandbox providers (default: recording providers named 'sandbox' for SMS and EMAIL). */
  sandbox?: ChannelProvider[];
}

/**
 * The whole send pipeline on in-memory adapters: one organization with a credited wallet, recording
 * providers for the live path and a separate recording provider standing in for the sandbox.
 */
export async function buildPipeline(options: PipelineOptions = {}) {
  const core: TestCore = buildCore();
  const now = core.clock.now();
  const organizationId = core.ids.next();
  await core.storage.organizations.insert(newOrganization(organizationId, 'Kente Foods', now));
  await core.storage.wallets.create(organizationId, now);
  const balance = options.balance ?? 10_000;
  if (balance > 0) await core.storage.wallets.update(organizationId, () => ({ amount: balance, kind: 'TOP_UP', reference: 'seed', description: 'seed' }), now);

  const liveSms = options.liveSms ?? [new RecordingProvider('SMS', 'live-sms')];
  const liveEmail = new RecordingProvider('EMAIL', 'live-email');
  const sandboxSms = new RecordingProvider('SMS', 'sandbox');
  const sandboxEmail = new RecordingProvider('EMAIL', 'sandbox');
  const providers = new StaticProviderDirectory([...liveSms, liveEmail, ...(options.livePush ?? [])], options.sandbox ?? [sandboxSms, sandboxEmail]);
  const deliver = new DeliverMessage({ storage: core.storage, providers, clock: core.clock, ids: core.ids, maxAttempts: options.maxAttempts ?? 3, leaseSeconds: 60 });
  const fraud: FraudLimits = { ...DEFAULT_FRAUD_LIMITS, ...options.fraud };
  const deps: SendDeps = {
    storage: core.storage, pricing: core.storage.pricing, clock: core.clock, ids: core.ids, secrets: core.secrets, fraud,
    deliverNow: (id) => deliver.execute(id),
  };
  const live: SendContext = { organizationId, userId: null, apiKeyId: 'key-live', isSandbox: false };
  const sandbox: SendContext = { ...live, apiKeyId: 'key-sandbox', isSandbox: true };
  return {
    core, organizationId, live, sandbox, deliver,
    providers: { sms: liveSms[0]!, liveSms, email: liveEmail, sandboxSms, sandboxEmail },
    send: new SendMessage(deps),
    bulk: new SendBulkMessages(deps),
    async balance(): Promise<number> { return (await core.storage.wallets.get(organizationId))!.balance; },
    /** Ledger entries oldest first, the seed top-up left out. */
    async entries(kind?: LedgerEntry['kind']): Promise<LedgerEntry[]> {
      const all = (await core.storage.wallets.listEntries(organizationId, 1_000)).reverse().filter((e) => e.reference !== 'seed');
      return kind ? all.filter((e) => e.kind === kind) : all;
    },
    /** Every delivery log of the organization, oldest first. */
    async messages(): Promise<Message[]> {
      return (await core.storage.messages.list(organizationId, {}, 0, 100)).items.reverse();
    },
    async stored(id: string): Promise<Message> { return (await core.storage.messages.findById(organizationId, id))!; },
    takeJobs() { return core.storage.jobs.take(QUEUES.notificationSend); },
    async pause(): Promise<void> { core.storage.state.organizations.get(organizationId)!.paused = true; },
    async suppress(recipient: { phone?: string; email?: string }, channel: Channel | null = null): Promise<void> {
      await core.storage.suppressions.insert({
        id: core.ids.next(), organizationId, phone: recipient.phone ?? null, email: recipient.email ?? null, channel, category: null, reason: 'opted out', createdAt: now,
      });
    },
    /** As if `phone` had just written on WhatsApp: its 24-hour window is open (docs/conversations.md). */
    async openWhatsappWindow(phone: string): Promise<void> {
      const at = core.clock.now();
      await core.storage.conversations.insert({ id: core.ids.next(), organizationId, contactId: core.ids.next(), channel: 'WHATSAPP', address: phone, lastInboundTo: 'wa-number',
        lastInboundAt: at, lastMessageAt: at, lastMessagePreview: 'hi', unreadCount: 0, createdAt: at, updatedAt: at });
    },
    async template(fields: Partial<Template>): Promise<Template> {
      const template = aTemplateRecord(core.ids.next(), organizationId, now, fields);
      await core.storage.templates.insert(template);
      return template;
    },
  };
}
export type Pipeline = Awaited<ReturnType<typeof buildPipeline>>;

/** A provider answer for a transient vendor failure (timeout, 5xx). */
export const transient = () => ({ accepted: false as const, retryable: true, errorCode: 'VENDOR_TIMEOUT', errorMessage: 'vendor timed out' });
/** A provider answer for a permanent refusal (invalid destination). */
export const permanent = () => ({ accepted: false as const, retryable: false, errorCode: 'VENDOR_REJECTED', errorMessage: 'destination refused' });

/** Runs `work` and returns the AppError it threw (fails the test when it does not throw). */
export async function caught(work: () => Promise<unknown>): Promise<{ code: string; message: string; details: Record<string, unknown> }> {
  try {
    await work();
  } catch (error) {
    return error as { code: string; message: string; details: Record<string, unknown> };
  }
  throw new Error('expected an error, none was thrown');
}
