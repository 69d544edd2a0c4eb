import type { TrackedLink } from '../../core/ports/tracked-link-repository.ts';
import type { LinkSettings } from '../../core/domain/link-settings.ts';
import type { DeliveryLane } from '../../core/domain/delivery-lane.ts';
import type { TenantDeliveryLimits } from '../../core/ports/tenant-delivery-limits.ts';
import type { SendWindow } from '../../core/domain/send-window.ts';
import type { OptOutLink } from '../../core/ports/opt-out-links.ts';
import type { ApiKey } from '../../core/domain/api-key.ts';
import type { Membership, Organization } from '../../core/domain/organization.ts';
import type { User } from '../../core/domain/user.ts';
import type { SsoConnection, SsoDomain } from '../../core/domain/sso.ts';
import type { Passkey, SignInChallenge, TotpFactor } from '../../core/domain/two-factor.ts';
import type { LedgerEntry, Wallet } from '../../core/domain/wallet.ts';
import type { ApprovalRequest } from '../../core/domain/approval.ts';
import type { Message } from '../../core/domain/message.ts';
import type { PricingRule } from '../../core/domain/pricing.ts';
import type { Template } from '../../core/domain/template.ts';
import type { PasswordReset } from '../../core/ports/password-reset-repository.ts';
import type { Suppression } from '../../core/ports/suppression-repository.ts';
import type { MessageAttempt, MessageStatusEvent } from '../../core/ports/message-status-repository.ts';
import type { OutboundEvent } from '../../core/domain/outbound-event.ts';
import type { AuditEntry } from '../../core/ports/audit-log-repository.ts';
import type { OrgAuditEntry } from '../../core/domain/org-audit.ts';
import type { Contact } from '../../core/domain/contact.ts';
import type { WebhookDelivery, WebhookEndpoint } from '../../core/domain/webhook.ts';
import type { Payment } from '../../core/domain/payment.ts';
import type { Invoice } from '../../core/domain/invoice.ts';
import type { EventTrigger, NotificationEvent, TriggerStep } from '../../core/domain/notification-event.ts';
import type { ContactImport } from '../../core/domain/contact-import.ts';
import type { Segment } from '../../core/domain/segment.ts';
import type { Campaign } from '../../core/domain/campaign.ts';
import type { CampaignRecipient } from '../../core/ports/campaign-repository.ts';
import type { SenderId } from '../../core/domain/sender-id.ts';
import type { Verification, VerifySettings } from '../../core/domain/verification.ts';
import type { Conversation, InboundMessage, InboundNumber } from '../../core/domain/conversation.ts';
import type { TenantKeyword } from '../../core/domain/inbound-keywords.ts';
import type { InboxItem, InboxSettings } from '../../core/domain/inbox.ts';
import type { WorkflowRun, WorkflowStepRun, WorkflowVersion } from '../../core/domain/workflow.ts';
import type { DigestBucket, FailureAcknowledgement } from '../../core/ports/workflow-repository.ts';
import type { FanOut, FanOutRecipient } from '../../core/domain/fan-out.ts';

export interface MemoryJob {
  queue: string;
  data: Record<string, unknown>;
  startAfterSeconds: number;
}

/** Everything the in-memory adapters keep. Cloned whole to roll a transaction back. */
export class MemoryState {
  users = new Map<string, User>();
  organizations = new Map<string, Organization>();
  memberships = new Map<string, Membership>();
  wallets = new Map<string, Wallet>();
  ledger: LedgerEntry[] = [];
  apiKeys = new Map<string, ApiKey>();
  passwordResets = new Map<string, PasswordReset>();
  jobs: MemoryJob[] = [];
  /** Lane priority (adapters/queue/lane-priority.ts) and tenant of each job enqueued with a lane. */
  jobLanes = new Map<MemoryJob, { priority: number; tenant: string | null }>();
  /** Jobs a worker took (`InMemoryJobQueue.fetch`), with when: the drain the backlog's ETA is taken from. */
  drainedJobs: Array<{ queue: string; lane: DeliveryLane; tenant: string | null; atMs: number }> = [];
  /** Fair-queueing tags: last tag given per `${lane} ${tenant}`. */
  fairTags = new Map<string, number>();
  /** Delivery weight and ceiling per organization (InMemoryTenantDeliveryLimitRepository); the queue reads the weights. */
  deliveryLimits = new Map<string, TenantDeliveryLimits>();
  messages = new Map<string, Message>();
  templates = new Map<string, Template>();
  approvals = new Map<string, ApprovalRequest>();
  senderIds = new Map<string, SenderId>();
  verifications = new Map<string, Verification>();
  verifySettings = new Map<string, VerifySettings>();
  inboxItems = new Map<string, InboxItem>();
  inboxSettings = new Map<string, InboxSettings>();
  pricingRules: PricingRule[] = [];
  idempotency = new Map<string, { requestHash: string; messageIds: string[]; expiresAt: Date }>();
  /** Revoked session token ids -> when the token would expire. */
  revokedTokens = new Map<string, Date>();
  /** User id -> sessions issued before this are refused. */
  sessionCutoffs = new Map<string, Date>();
  /** user id -> client digest -> last seen. */
  knownLoginClients = new Map<string, Map<string, Date>>();
  /** Two-factor: user id -> authenticator; user id -> recovery code digest -> used at; credential id -> passkey; challenge id -> challenge; organization id -> required since. */
  totpFactors = new Map<string, TotpFactor>();
  recoveryCodes = new Map<string, Map<string, Date | null>>();
  passkeys = new Map<string, Passkey>();
  signInChallenges = new Map<string, SignInChallenge>();
  twoFactorPolicies = new Map<string, Date>();
  suppressions = new Map<string, Suppression>();
  optOutLinks = new Map<string, OptOutLink>();
  /** Seeded as migration 0021 seeds the database: GH marketing, Monday to Saturday, 08:00-19:00. */
  sendWindows: SendWindow[] = [{ country: 'GH', category: 'MARKETING', days: [1, 2, 3, 4, 5, 6], opensAt: '08:00', closesAt: '19:00' }];
  statusEvents: MessageStatusEvent[] = [];
  attempts: MessageAttempt[] = [];
  outboundEvents: OutboundEvent[] = [];
  auditLog: AuditEntry[] = [];
  orgAuditLog: OrgAuditEntry[] = [];
  /** Per organization: the chain head and the last seq removed by retention. */
  orgAuditHeads = new Map<string, { seq: number; hash: string; purgedThrough: number }>();
  contacts = new Map<string, Contact>();
  webhookEndpoints = new Map<string, WebhookEndpoint>();
  webhookDeliveries = new Map<string, WebhookDelivery>();
  payments = new Map<string, Payment>();
  invoices = new Map<string, Invoice>();
  notificationEvents = new Map<string, NotificationEvent>();
  eventTriggers = new Map<string, EventTrigger>();
  triggerSteps: TriggerStep[] = [];
  contactImports = new Map<string, ContactImport>();
  importChunks = new Map<string, Uint8Array[]>();
  segments = new Map<string, Segment>();
  /** Key: `${segmentId}/${contactId}`. */
  segmentMembers = new Map<string, { segmentId: string; contactId: string }>();
  campaigns = new Map<string, Campaign>();
  /** Key: `${campaignId}/${contactId}`. */
  campaignRecipients = new Map<string, CampaignRecipient & { campaignId: string }>();
  conversations = new Map<string, Conversation>();
  inboundMessages: InboundMessage[] = [];
  inboundNumbers = new Map<string, InboundNumber>();
  inboundKeywords: TenantKeyword[] = [];
  ssoConnections = new Map<string, SsoConnection>();
  ssoDomains = new Map<string, SsoDomain>();
  workflowVersions: WorkflowVersion[] = [];
  workflowRuns = new Map<string, WorkflowRun>();
  /** Key: `${runId}/${index}`. */
  workflowSteps = new Map<string, WorkflowStepRun>();
  digestBuckets: DigestBucket[] = [];
  digestItems: Array<{ bucketId: string; runId: string; variables: Record<string, string>; at: Date }> = [];
  /** Key: `${organizationId} ${key} ${windowStart}`. */
  throttles = new Map<string, number>();
  /** Key: organization id. */
  workflowFailureAcks = new Map<string, FailureAcknowledgement>();
  fanOuts = new Map<string, FanOut>();
  /** Key: `${fanOutId}/${contactId}`. */
  fanOutRecipients = new Map<string, FanOutRecipient & { organizationId: string; fanOutId: string }>();
  trackedLinks = new Map<string, TrackedLink & { clicks: number; uniqueClicks: number; firstClickedAt: Date | null }>();
  linkSettings = new Map<string, LinkSettings>();

  snapshot(): MemoryState {
    return Object.assign(new MemoryState(), structuredClone({ ...this }));
  }

  restore(from: MemoryState): void {
    Object.assign(this, from);
  }
}

/** Copies records in and out so callers never share mutable objects with the store. */
export function copy<T>(value: T): T {
  return structuredClone(value);
}
