import { SqlTrackedLinkRepository } from './sql-tracked-link-repository.ts';
import { SqlLinkSettingsRepository } from './sql-link-settings-repository.ts';
import type { EntityManager } from '@mikro-orm/sql';
import type { PgBoss } from 'pg-boss';
import type { IdGenerator } from '../../core/ports/id-generator.ts';
import type { Repositories, Storage } from '../../core/ports/storage.ts';
import { PgBossJobQueue } from '../queue/pg-boss-job-queue.ts';
import type { Database } from './database.ts';
import { MikroOrmApiKeyRepository } from './mikro-orm-api-key-repository.ts';
import { MikroOrmMembershipRepository } from './mikro-orm-membership-repository.ts';
import { MikroOrmOrganizationRepository } from './mikro-orm-organization-repository.ts';
import { MikroOrmPasswordResetRepository } from './mikro-orm-password-reset-repository.ts';
import { MikroOrmUserRepository } from './mikro-orm-user-repository.ts';
import { MikroOrmWalletRepository } from './mikro-orm-wallet-repository.ts';
import { MikroOrmApprovalRepository } from './mikro-orm-approval-repository.ts';
import { MikroOrmMessageRepository } from './mikro-orm-message-repository.ts';
import { SqlMessageStatusRepository } from './sql-message-status-repository.ts';
import { MikroOrmSuppressionRepository } from './mikro-orm-suppression-repository.ts';
import { MikroOrmTemplateRepository } from './mikro-orm-template-repository.ts';
import { SqlIdempotencyRepository } from './sql-idempotency-repository.ts';
import { SqlSessionRevocationRepository } from './sql-session-revocation-repository.ts';
import { SqlKnownLoginClientRepository } from './sql-known-login-client-repository.ts';
import { SqlSsoRepository } from './sql-sso-repository.ts';
import { SqlSecondFactorRepository, SqlSignInChallengeRepository, SqlTwoFactorPolicyRepository } from './sql-two-factor-repositories.ts';
import { SqlSenderIdRepository } from './sql-sender-id-repository.ts';
import { SqlOptOutLinkRepository } from './sql-opt-out-link-repository.ts';
import { SqlSendWindowRepository } from './sql-send-window-repository.ts';
import { SqlVerificationRepository } from './sql-verification-repository.ts';
import { SqlConversationRepository } from './sql-conversation-repository.ts';
import { SqlInboundNumberRepository } from './sql-inbound-number-repository.ts';
import { SqlInboxRepository } from './sql-inbox-repository.ts';
import { SqlPricingRepository } from './sql-pricing-repository.ts';
import { SqlOutboundEventRepository } from './sql-outbound-event-repository.ts';
import { SqlAuditLogRepository } from './sql-audit-log-repository.ts';
import { SqlOrgAuditLog } from './sql-org-audit-log.ts';
import { SqlContactRepository } from './sql-contact-repository.ts';
import { SqlWebhookEndpointRepository } from './sql-webhook-endpoint-repository.ts';
import { SqlWebhookDeliveryRepository } from './sql-webhook-delivery-repository.ts';
import { SqlAnalyticsRepository } from './sql-analytics-repository.ts';
import { SqlPaymentRepository } from './sql-payment-repository.ts';
import { SqlInvoiceRepository } from './sql-invoice-repository.ts';
import { SqlBillingReportRepository } from './sql-billing-report-repository.ts';
import { SqlPlatformReportRepository } from './sql-platform-report-repository.ts';
import { SqlNotificationEventRepository } from './sql-notification-event-repository.ts';
import { SqlEventTriggerRepository } from './sql-event-trigger-repository.ts';
import { SqlContactImportRepository } from './sql-contact-import-repository.ts';
import { SqlSegmentRepository } from './sql-segment-repository.ts';
import { SqlCampaignRepository } from './sql-campaign-repository.ts';
import { SqlWorkflowRepository } from './sql-workflow-repository.ts';

/**
 * Storage on MikroORM (PGlite or PostgreSQL). Outside a transaction every repository call runs on a
 * fresh EntityManager; `transaction` hands `work` repositories bound to one transactional
 * EntityManager, and a job queue that writes through the same transaction.
 */
export class MikroOrmStorage implements Storage {
  readonly #database: Database;
  readonly #ids: IdGenerator;
  readonly #boss: PgBoss;
  constructor(database: Database, ids: IdGenerator, boss: PgBoss) { this.#database = database; this.#ids = ids; this.#boss = boss; }

  get users() { return new MikroOrmUserRepository(this.#database.em()); }
  get organizations() { return new MikroOrmOrganizationRepository(this.#database.em()); }
  get memberships() { return new MikroOrmMembershipRepository(this.#database.em()); }
  get wallets() { return new MikroOrmWalletRepository(this.#database.em(), this.#ids); }
  get apiKeys() { return new MikroOrmApiKeyRepository(this.#database.em()); }
  get passwordResets() { return new MikroOrmPasswordResetRepository(this.#database.em()); }
  get sessionRevocations() { return new SqlSessionRevocationRepository(this.#database.em()); }
  get knownLoginClients() { return new SqlKnownLoginClientRepository(this.#database.em()); }
  get secondFactors() { return new SqlSecondFactorRepository(this.#database.em()); }
  get signInChallenges() { return new SqlSignInChallengeRepository(this.#database.em()); }
  get twoFactorPolicies() { return new SqlTwoFactorPolicyRepository(this.#database.em()); }
  get messages() { return new MikroOrmMessageRepository(this.#database.em()); }
  get messageStatus() { return new SqlMessageStatusRepository(this.#database.em()); }
  get templates() { return new MikroOrmTemplateRepository(this.#database.em()); }
  get approvals() { return new MikroOrmApprovalRepository(this.#database.em()); }
  get pricing() { return new SqlPricingRepository(this.#database.em()); }
  get idempotency() { return new SqlIdempotencyRepository(this.#database.em()); }
  get suppressions() { return new MikroOrmSuppressionRepository(this.#database.em()); }
  get outboundEvents() { return new SqlOutboundEventRepository(this.#database.em()); }
  get auditLog() { return new SqlAuditLogRepository(this.#database.em()); }
  get orgAuditLog() { return new SqlOrgAuditLog(this.#database.em(), this.#ids); }
  get contacts() { return new SqlContactRepository(this.#database.em()); }
  get webhookEndpoints() { return new SqlWebhookEndpointRepository(this.#database.em()); }
  get webhookDeliveries() { return new SqlWebhookDeliveryRepository(this.#database.em()); }
  get analytics() { return new SqlAnalyticsRepository(this.#database.em()); }
  get payments() { return new SqlPaymentRepository(this.#database.em()); }
  get invoices() { return new SqlInvoiceRepository(this.#database.em()); }
  get billingReports() { return new SqlBillingReportRepository(this.#database.em()); }
  get platformReports() { return new SqlPlatformReportRepository(this.#database.em()); }
  get notificationEvents() { return new SqlNotificationEventRepository(this.#database.em()); }
  get eventTriggers() { return new SqlEventTriggerRepository(this.#database.em()); }
  get jobs() { return new PgBossJobQueue(this.#boss); }
  get contactImports() { return new SqlContactImportRepository(this.#database.em()); }
  get segments() { return new SqlSegmentRepository(this.#database.em()); }
  get senderIds() { return new SqlSenderIdRepository(this.#database.em()); }
  get verifications() { return new SqlVerificationRepository(this.#database.em()); }
  get inbox() { return new SqlInboxRepository(this.#database.em()); }
  get optOutLinks() { return new SqlOptOutLinkRepository(this.#database.em()); }
  get sendWindows() { return new SqlSendWindowRepository(this.#database.em()); }
  get conversations() { return new SqlConversationRepository(this.#database.em()); }
  get inboundNumbers() { return new SqlInboundNumberRepository(this.#database.em()); }
  get sso() { return new SqlSsoRepository(this.#database.em()); }
  get trackedLinks() { return new SqlTrackedLinkRepository(this.#database.em()); }
  get linkSettings() { return new SqlLinkSettingsRepository(this.#database.em()); }
  get campaigns() { return new SqlCampaignRepository(this.#database.em()); }
  get workflows() { return new SqlWorkflowRepository(this.#database.em()); }

  transaction<T>(work: (tx: Repositories) => Promise<T>): Promise<T> {
    return this.#database.em().transactional((em) => work(this.#bound(em)));
  }

  #bound(em: EntityManager): Repositories {
    return {
      users: new MikroOrmUserRepository(em),
      organizations: new MikroOrmOrganizationRepository(em),
      memberships: new MikroOrmMembershipRepository(em),
      wallets: new MikroOrmWalletRepository(em, this.#ids),
      apiKeys: new MikroOrmApiKeyRepository(em),
      passwordResets: new MikroOrmPasswordResetRepository(em),
      sessionRevocations: new SqlSessionRevocationRepository(em),
      knownLoginClients: new SqlKnownLoginClientRepository(em),
      secondFactors: new SqlSecondFactorRepository(em),
      signInChallenges: new SqlSignInChallengeRepository(em),
      twoFactorPolicies: new SqlTwoFactorPolicyRepository(em),
      messages: new MikroOrmMessageRepository(em),
      messageStatus: new SqlMessageStatusRepository(em),
      templates: new MikroOrmTemplateRepository(em),
      approvals: new MikroOrmApprovalRepository(em),
      pricing: new SqlPricingRepository(em),
      idempotency: new SqlIdempotencyRepository(em),
      suppressions: new MikroOrmSuppressionRepository(em),
      outboundEvents: new SqlOutboundEventRepository(em),
      auditLog: new SqlAuditLogRepository(em),
      orgAuditLog: new SqlOrgAuditLog(em, this.#ids),
      contacts: new SqlContactRepository(em),
      webhookEndpoints: new SqlWebhookEndpointRepository(em),
      webhookDeliveries: new SqlWebhookDeliveryRepository(em),
      analytics: new SqlAnalyticsRepository(em),
      payments: new SqlPaymentRepository(em),
      invoices: new SqlInvoiceRepository(em),
      billingReports: new SqlBillingReportRepository(em),
      platformReports: new SqlPlatformReportRepository(em),
      notificationEvents: new SqlNotificationEventRepository(em),
      eventTriggers: new SqlEventTriggerRepository(em),
      jobs: new PgBossJobQueue(this.#boss, em),
      contactImports: new SqlContactImportRepository(em),
      segments: new SqlSegmentRepository(em),
      senderIds: new SqlSenderIdRepository(em),
      verifications: new SqlVerificationRepository(em),
      inbox: new SqlInboxRepository(em),
      optOutLinks: new SqlOptOutLinkRepository(em),
      sendWindows: new SqlSendWindowRepository(em),
      conversations: new SqlConversationRepository(em),
      inboundNumbers: new SqlInboundNumberRepository(em),
      sso: new SqlSsoRepository(em),
      trackedLinks: new SqlTrackedLinkRepository(em),
      linkSettings: new SqlLinkSettingsRepository(em),
      campaigns: new SqlCampaignRepository(em),
      workflows: new SqlWorkflowRepository(em),
    };
  }
}
