import { InMemoryTrackedLinkRepository } from './in-memory-tracked-link-repository.ts';
import { InMemoryLinkSettingsRepository } from './in-memory-link-settings-repository.ts';
import type { IdGenerator } from '../../core/ports/id-generator.ts';
import type { Repositories, Storage } from '../../core/ports/storage.ts';
import { InMemoryApiKeyRepository } from './in-memory-api-key-repository.ts';
import { InMemoryJobQueue } from './in-memory-job-queue.ts';
import { InMemoryMembershipRepository } from './in-memory-membership-repository.ts';
import { InMemoryOrganizationRepository } from './in-memory-organization-repository.ts';
import { InMemoryPasswordResetRepository } from './in-memory-password-reset-repository.ts';
import { InMemoryUserRepository } from './in-memory-user-repository.ts';
import { InMemoryWalletRepository } from './in-memory-wallet-repository.ts';
import { MemoryState } from './memory-state.ts';
import { InMemoryApprovalRepository } from './in-memory-approval-repository.ts';
import { InMemoryIdempotencyRepository } from './in-memory-idempotency-repository.ts';
import { InMemorySessionRevocationRepository } from './in-memory-session-revocation-repository.ts';
import { InMemoryKnownLoginClientRepository } from './in-memory-known-login-client-repository.ts';
import { InMemorySecondFactorRepository, InMemorySignInChallengeRepository, InMemoryTwoFactorPolicyRepository } from './in-memory-two-factor-repositories.ts';
import { InMemorySenderIdRepository } from './in-memory-sender-id-repository.ts';
import { InMemoryVerificationRepository } from './in-memory-verification-repository.ts';
import { InMemoryInboxRepository } from './in-memory-inbox-repository.ts';
import { InMemoryInboxFeed } from './in-memory-inbox-feed.ts';
import { InMemoryOptOutLinkRepository } from './in-memory-opt-out-link-repository.ts';
import { InMemorySendWindowRepository } from './in-memory-send-window-repository.ts';
import { InMemoryConversationRepository } from './in-memory-conversation-repository.ts';
import { InMemoryInboundNumberRepository } from './in-memory-inbound-number-repository.ts';
import { InMemoryMessageRepository } from './in-memory-message-repository.ts';
import { InMemoryMessageStatusRepository } from './in-memory-message-status-repository.ts';
import { InMemoryPricingRepository } from './in-memory-pricing-repository.ts';
import { InMemorySuppressionRepository } from './in-memory-suppression-repository.ts';
import { InMemoryTemplateRepository } from './in-memory-template-repository.ts';
import { InMemoryOutboundEventRepository } from './in-memory-outbound-event-repository.ts';
import { InMemoryAuditLogRepository } from './in-memory-audit-log-repository.ts';
import { InMemoryContactRepository } from './in-memory-contact-repository.ts';
import { InMemoryWebhookEndpointRepository } from './in-memory-webhook-endpoint-repository.ts';
import { InMemoryWebhookDeliveryRepository } from './in-memory-webhook-delivery-repository.ts';
import { InMemoryAnalyticsRepository } from './in-memory-analytics-repository.ts';
import { InMemoryPaymentRepository } from './in-memory-payment-repository.ts';
import { InMemoryInvoiceRepository } from './in-memory-invoice-repository.ts';
import { InMemoryBillingReportRepository } from './in-memory-billing-report-repository.ts';
import { InMemoryPlatformReportRepository } from './in-memory-platform-report-repository.ts';
import { InMemoryNotificationEventRepository } from './in-memory-notification-event-repository.ts';
import { InMemoryEventTriggerRepository } from './in-memory-event-trigger-repository.ts';
import { InMemoryContactImportRepository } from './in-memory-contact-import-repository.ts';
import { InMemorySegmentRepository } from './in-memory-segment-repository.ts';
import { InMemoryCampaignRepository } from './in-memory-campaign-repository.ts';
import { InMemorySsoRepository } from './in-memory-sso-repository.ts';
import { InMemoryOrgAuditLog } from './in-memory-org-audit-log.ts';
import { InMemoryWorkflowRepository } from './in-memory-workflow-repository.ts';

/**
 * Storage in process memory, for tests and for embedding teams' own tests. Transactions run one at a
 * time and roll back by restoring a snapshot taken when they began.
 */
export class InMemoryStorage implements Storage {
  readonly state = new MemoryState();
  readonly users; readonly organizations; readonly memberships; readonly wallets; readonly apiKeys; readonly passwordResets; readonly sessionRevocations; readonly knownLoginClients;
  readonly messages; readonly messageStatus; readonly templates; readonly approvals; readonly pricing; readonly idempotency; readonly suppressions;
  readonly outboundEvents; readonly auditLog; readonly orgAuditLog; readonly contacts;
  readonly webhookEndpoints; readonly webhookDeliveries; readonly analytics;
  readonly payments; readonly invoices; readonly billingReports;
  readonly platformReports;
  readonly notificationEvents; readonly eventTriggers;
  readonly jobs: InMemoryJobQueue;
  readonly contactImports; readonly segments; readonly campaigns; readonly senderIds; readonly verifications; readonly optOutLinks; readonly trackedLinks; readonly linkSettings; readonly sendWindows; readonly inbox;
  readonly conversations; readonly inboundNumbers; readonly sso;
  readonly secondFactors; readonly signInChallenges; readonly twoFactorPolicies;
  readonly workflows;
  /** Where the inbox repository publishes feed changes (in process). */
  readonly inboxFeed = new InMemoryInboxFeed();
  #tail: Promise<unknown> = Promise.resolve();

  constructor(ids: IdGenerator) {
    this.users = new InMemoryUserRepository(this.state);
    this.organizations = new InMemoryOrganizationRepository(this.state);
    this.memberships = new InMemoryMembershipRepository(this.state);
    this.wallets = new InMemoryWalletRepository(this.state, ids);
    this.apiKeys = new InMemoryApiKeyRepository(this.state);
    this.passwordResets = new InMemoryPasswordResetRepository(this.state);
    this.sessionRevocations = new InMemorySessionRevocationRepository(this.state);
    this.knownLoginClients = new InMemoryKnownLoginClientRepository(this.state);
    this.messages = new InMemoryMessageRepository(this.state);
    this.messageStatus = new InMemoryMessageStatusRepository(this.state);
    this.templates = new InMemoryTemplateRepository(this.state);
    this.approvals = new InMemoryApprovalRepository(this.state);
    this.pricing = new InMemoryPricingRepository(this.state);
    this.idempotency = new InMemoryIdempotencyRepository(this.state);
    this.suppressions = new InMemorySuppressionRepository(this.state);
    this.outboundEvents = new InMemoryOutboundEventRepository(this.state);
    this.auditLog = new InMemoryAuditLogRepository(this.state);
    this.orgAuditLog = new InMemoryOrgAuditLog(this.state, ids);
    this.contacts = new InMemoryContactRepository(this.state);
    this.webhookEndpoints = new InMemoryWebhookEndpointRepository(this.state);
    this.webhookDeliveries = new InMemoryWebhookDeliveryRepository(this.state);
    this.analytics = new InMemoryAnalyticsRepository(this.state);
    this.payments = new InMemoryPaymentRepository(this.state);
    this.invoices = new InMemoryInvoiceRepository(this.state);
    this.billingReports = new InMemoryBillingReportRepository(this.state);
    this.platformReports = new InMemoryPlatformReportRepository(this.state);
    this.notificationEvents = new InMemoryNotificationEventRepository(this.state);
    this.eventTriggers = new InMemoryEventTriggerRepository(this.state);
    this.jobs = new InMemoryJobQueue(this.state);
    this.contactImports = new InMemoryContactImportRepository(this.state);
    this.segments = new InMemorySegmentRepository(this.state);
    this.campaigns = new InMemoryCampaignRepository(this.state);
    this.senderIds = new InMemorySenderIdRepository(this.state);
    this.verifications = new InMemoryVerificationRepository(this.state);
    this.inbox = new InMemoryInboxRepository(this.state, this.inboxFeed);
    this.optOutLinks = new InMemoryOptOutLinkRepository(this.state);
    this.sendWindows = new InMemorySendWindowRepository(this.state);
    this.conversations = new InMemoryConversationRepository(this.state);
    this.inboundNumbers = new InMemoryInboundNumberRepository(this.state);
    this.sso = new InMemorySsoRepository(this.state);
    this.secondFactors = new InMemorySecondFactorRepository(this.state);
    this.signInChallenges = new InMemorySignInChallengeRepository(this.state);
    this.twoFactorPolicies = new InMemoryTwoFactorPolicyRepository(this.state);
    this.workflows = new InMemoryWorkflowRepository(this.state);
    this.trackedLinks = new InMemoryTrackedLinkRepository(this.state);
    this.linkSettings = new InMemoryLinkSettingsRepository(this.state);
  }

  transaction<T>(work: (tx: Repositories) => Promise<T>): Promise<T> {
    const run = async () => {
      const before = this.state.snapshot();
      try {
        return await work(this);
      } catch (error) {
        this.state.restore(before);
        throw error;
      }
    };
    const result = this.#tail.then(run, run);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
