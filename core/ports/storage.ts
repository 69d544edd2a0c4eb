import type { TrackedLinkRepository } from './tracked-link-repository.ts';
import type { LinkSettingsRepository } from './link-settings-repository.ts';
import type { ApiKeyRepository } from './api-key-repository.ts';
import type { ApprovalRepository } from './approval-repository.ts';
import type { IdempotencyRepository } from './idempotency-repository.ts';
import type { SessionRevocationRepository } from './session-revocation-repository.ts';
import type { KnownLoginClientRepository } from './known-login-client-repository.ts';
import type { MessageRepository } from './message-repository.ts';
import type { MessageStatusRepository } from './message-status-repository.ts';
import type { PricingRepository } from './pricing-repository.ts';
import type { SuppressionRepository } from './suppression-repository.ts';
import type { TemplateRepository } from './template-repository.ts';
import type { JobQueue } from './job-queue.ts';
import type { MembershipRepository } from './membership-repository.ts';
import type { OrganizationRepository } from './organization-repository.ts';
import type { PasswordResetRepository } from './password-reset-repository.ts';
import type { UserRepository } from './user-repository.ts';
import type { WalletRepository } from './wallet-repository.ts';
import type { OutboundEventRepository } from './outbound-event-repository.ts';
import type { AuditLogRepository } from './audit-log-repository.ts';
import type { OrgAuditLogRepository } from './org-audit-log.ts';
import type { ContactRepository } from './contact-repository.ts';
import type { WebhookEndpointRepository } from './webhook-endpoint-repository.ts';
import type { WebhookDeliveryRepository } from './webhook-delivery-repository.ts';
import type { AnalyticsRepository } from './analytics-repository.ts';
import type { PaymentRepository } from './payment-repository.ts';
import type { InvoiceRepository } from './invoice-repository.ts';
import type { BillingReportRepository } from './billing-report-repository.ts';
import type { PlatformReportRepository } from './platform-report-repository.ts';
import type { NotificationEventRepository } from './notification-event-repository.ts';
import type { EventTriggerRepository } from './event-trigger-repository.ts';
import type { ContactImportRepository } from './contact-import-repository.ts';
import type { SegmentRepository } from './segment-repository.ts';
import type { CampaignRepository } from './campaign-repository.ts';
import type { SenderIdRepository } from './sender-id-repository.ts';
import type { VerificationRepository } from './verification-repository.ts';
import type { InboxRepository } from './inbox-repository.ts';
import type { OptOutLinkRepository } from './opt-out-links.ts';
import type { SendWindowRepository } from './send-window-repository.ts';
import type { ConversationRepository } from './conversation-repository.ts';
import type { InboundNumberRepository } from './inbound-number-repository.ts';
import type { SsoRepository } from './sso-repository.ts';
import type { SecondFactorRepository } from './second-factor-repository.ts';
import type { SignInChallengeRepository } from './sign-in-challenge-repository.ts';
import type { TwoFactorPolicyRepository } from './two-factor-policy-repository.ts';
import type { WorkflowRepository } from './workflow-repository.ts';

/** Every repository, plus the job queue so that enqueueing commits with the writes. */
export interface Repositories {
  users: UserRepository;
  organizations: OrganizationRepository;
  memberships: MembershipRepository;
  wallets: WalletRepository;
  apiKeys: ApiKeyRepository;
  passwordResets: PasswordResetRepository;
  sessionRevocations: SessionRevocationRepository;
  knownLoginClients: KnownLoginClientRepository;
  messages: MessageRepository;
  messageStatus: MessageStatusRepository;
  templates: TemplateRepository;
  approvals: ApprovalRepository;
  pricing: PricingRepository;
  idempotency: IdempotencyRepository;
  suppressions: SuppressionRepository;
  outboundEvents: OutboundEventRepository;
  auditLog: AuditLogRepository;
  /** The organization's own audit log (docs/audit-log.md); `auditLog` is the platform administrators' one. */
  orgAuditLog: OrgAuditLogRepository;
  contacts: ContactRepository;
  webhookEndpoints: WebhookEndpointRepository;
  webhookDeliveries: WebhookDeliveryRepository;
  analytics: AnalyticsRepository;
  payments: PaymentRepository;
  invoices: InvoiceRepository;
  billingReports: BillingReportRepository;
  platformReports: PlatformReportRepository;
  notificationEvents: NotificationEventRepository;
  eventTriggers: EventTriggerRepository;
  jobs: JobQueue;
  contactImports: ContactImportRepository;
  segments: SegmentRepository;
  campaigns: CampaignRepository;
  senderIds: SenderIdRepository;
  verifications: VerificationRepository;
  inbox: InboxRepository;
  optOutLinks: OptOutLinkRepository;
  sendWindows: SendWindowRepository;
  conversations: ConversationRepository;
  /** Platform data (receiving numbers assigned to organizations). */
  inboundNumbers: InboundNumberRepository;
  /** Single sign-on connections and verified email domains. */
  sso: SsoRepository;
  /** Two-factor sign-in (docs/security.md): users' factors, sign-in challenges, organizations' requirement. */
  secondFactors: SecondFactorRepository;
  signInChallenges: SignInChallengeRepository;
  twoFactorPolicies: TwoFactorPolicyRepository;
  /** Workflow versions, runs, step runs, digests and throttles (docs/workflows.md). */
  workflows: WorkflowRepository;
  /** Tracked short links of sent messages (docs/links.md). */
  trackedLinks: TrackedLinkRepository;
  /** Organizations' tracked-link settings and custom link domains. */
  linkSettings: LinkSettingsRepository;
}

/**
 * The storage port. Outside `transaction` each call commits on its own. Inside, every call made
 * through `tx` commits or rolls back together; an error thrown by `work` rolls everything back
 * (including jobs enqueued through `tx.jobs`).
 *
 * Inside `work`, use only `tx`: on the embedded PGlite (one connection) a call through `storage`
 * would wait for the transaction forever. A repository error inside a transaction (e.g. CONFLICT)
 * ends it on PostgreSQL: rethrow it, never catch and carry on; check before writing instead.
 */
export interface Storage extends Repositories {
  transaction<T>(work: (tx: Repositories) => Promise<T>): Promise<T>;
}
