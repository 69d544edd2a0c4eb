import { foundation } from './0001-foundation.ts';
import { messaging } from './0002-messaging.ts';
import { deliveryLogIndexes } from './0003-delivery-log-indexes.ts';
import { providers } from './0004-providers.ts';
import { outboxAuditContacts } from './0005-outbox-audit-contacts.ts';
import { billing } from './0008-billing.ts';
import { events } from './0007-events.ts';
import { webhooksAnalytics } from './0010-webhooks-analytics.ts';
import { audience } from './0006-audience.ts';
import { statementLevelStats } from './0011-statement-level-stats.ts';
import { contactsCreatedAscending } from './0012-contacts-created-ascending.ts';
import { trialCredit } from './0013-trial-credit.ts';
import { sessionRevocation } from './0014-session-revocation.ts';
import { pendingLeaseIndex } from './0015-pending-lease-index.ts';
import { contactAttributes } from './0016-contact-attributes.ts';
import { tenantAccountsSenderIds } from './0017-tenant-accounts-sender-ids.ts';
import { providerMetricsIndexes } from './0018-provider-metrics-indexes.ts';
import type { Migration } from './migration.ts';
import { verify } from './0019-verify.ts';
import { verifyExpiry } from './0020-verify-expiry.ts';
import { inbox } from './0030-inbox.ts';
import { consentAndScheduling } from './0021-consent-and-scheduling.ts';
import { campaignSchedule } from './0022-campaign-schedule.ts';
import { inboundConversations } from './0035-inbound-conversations.ts';
import { partitionedLogs } from './0040-partitioned-logs.ts';
import { deliveryLogStatements } from './0041-delivery-log-statements.ts';

/** Every migration, in the order it runs. Append only. */
export const MIGRATIONS: readonly Migration[] = [foundation, messaging, providers, deliveryLogIndexes, outboxAuditContacts, billing, events, webhooksAnalytics, audience, statementLevelStats, contactsCreatedAscending, trialCredit, sessionRevocation, pendingLeaseIndex, contactAttributes, tenantAccountsSenderIds, providerMetricsIndexes, verify, verifyExpiry, consentAndScheduling, campaignSchedule, inbox, inboundConversations, partitionedLogs, deliveryLogStatements];
