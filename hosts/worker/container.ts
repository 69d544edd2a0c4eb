import { consentReleaseScreen } from '../../core/use-cases/consent/consent-release-screen.ts';
import { Container } from 'inversify';
import { PostgresRateLimiter } from '../../adapters/postgres/postgres-rate-limiter.ts';
import { QUEUES } from '../../core/ports/job-queue.ts';
import type { Config } from '../config.ts';
import type { Infrastructure } from '../infrastructure.ts';
import type { Logger } from '../logger.ts';
import { bindInfrastructure } from '../shared-bindings.ts';
import { INFRA, token } from '../tokens.ts';
import type { JobHandler } from './job-handler.ts';
import type { PeriodicTask } from './periodic-task.ts';
import { RecoverAbandonedDeliveries } from '../../core/use-cases/messaging/recover-abandoned-deliveries.ts';
import { maintenanceHandler } from './maintenance-handler.ts';
import { deliverMessageHandler } from './deliver-message-handler.ts';
import { EXPRESS_MIN_PRIORITY } from '../../adapters/queue/lane-priority.ts';
import { deliveryStatusPollHandler } from './delivery-status-poll-handler.ts';
import { bindMessaging, MESSAGING, type MessagingOverrides } from '../messaging-bindings.ts';
import { WEBHOOKS } from '../webhook-bindings.ts';
import { webhookDeliverHandler, webhookDispatchHandler } from './webhook-handlers.ts';
import { DispatchOutboundEvents } from '../../core/use-cases/webhooks/dispatch-outbound-events.ts';
import { DeliverWebhooks } from '../../core/use-cases/webhooks/deliver-webhooks.ts';
import type { EmailSender } from '../../core/ports/email-sender.ts';
import { GenerateMonthlyStatements } from '../../core/use-cases/billing/generate-monthly-statements.ts';
import { SendLowBalanceAlert } from '../../core/use-cases/billing/send-low-balance-alert.ts';
import { lowBalanceAlertHandler, monthlyStatementsHandler } from './billing-handlers.ts';
import { AdvanceTrigger } from '../../core/use-cases/events/advance-trigger.ts';
import { triggerFallbackHandler } from './trigger-fallback-handler.ts';
import { RunWorkflowStep } from '../../core/use-cases/workflows/run-workflow-step.ts';
import { workflowStepHandler } from './workflow-step-handler.ts';
import { RunFanOut } from '../../core/use-cases/workflows/run-fan-out.ts';
import { workflowFanOutHandler } from './workflow-fan-out-handler.ts';
import { ResumeDueDelays } from '../../core/use-cases/workflows/resume-due-delays.ts';
import { JoinDigestsInBatch } from '../../core/use-cases/workflows/join-digests-in-batch.ts';
import { SendStepsInBatch } from '../../core/use-cases/workflows/send-steps-in-batch.ts';
import { inboxUnreadFallbackHandler } from './inbox-unread-fallback-handler.ts';
import { AdvanceUnreadTrigger } from '../../core/use-cases/events/advance-unread-trigger.ts';
import { verifyFallbackHandler } from './verify-fallback-handler.ts';
import { ExpireVerifications } from '../../core/use-cases/verify/expire-verifications.ts';
import { AdvanceVerification } from '../../core/use-cases/verify/advance-verification.ts';
import { CsvParseReader } from '../../adapters/csv/csv-parse-reader.ts';
import { ProcessContactImport } from '../../core/use-cases/contacts/process-contact-import.ts';
import { contactImportHandler } from './contact-import-handler.ts';
import { RunCampaign } from '../../core/use-cases/campaigns/run-campaign.ts';
import { campaignRunHandler } from './campaign-run-handler.ts';
import { ReleaseScheduledMessages } from '../../core/use-cases/messaging/release-scheduled-messages.ts';
import { PostgresPartitionMaintenance } from '../../adapters/postgres/partition-maintenance.ts';
import { openArchiveTarget } from '../../adapters/archive/open-archive-target.ts';
import { ROUTING } from '../routing-bindings.ts';
import { EvaluateRoutes } from '../../core/use-cases/routing/evaluate-routes.ts';
import { PublishRouteShifts } from '../../core/use-cases/routing/publish-route-shifts.ts';
import { SqlRouteShiftAudience } from '../../adapters/postgres/sql-route-shift-audience.ts';
import type { Channel } from '../../core/domain/channel.ts';

export const WORKER = {
  handlers: token<JobHandler>('worker.handlers'),
  tasks: token<PeriodicTask>('worker.tasks'),
} as const;

/** How often each worker process frees the claims of deliveries whose process died (RecoverAbandonedDeliveries). */
const RECOVERY_SWEEP_MS = 5_000;
/** How often each worker process expires and announces verifications past their expiry (ExpireVerifications). */
const VERIFY_EXPIRY_SWEEP_MS = 30_000;
/** How often each worker process releases due SCHEDULED messages and starts due campaigns (docs/scheduling.md). */
export const SCHEDULER_TICK_MS = 1_000;
/** How often every worker's delay resumer looks for due workflow delays (docs/adr/0044, "Due delays"). */
export const WORKFLOW_RESUME_TICK_MS = 500;
/**
 * workflow-step jobs fetched per batch: a batch's digest joins are one transaction of a few statements whatever its
 * size, so 1,000,000 triggers take 2,000 of them; the jobs left (sends, branches ...) run WORKER_CONCURRENCY at a time.
 */
export const WORKFLOW_STEP_BATCH = 500;

/**
 * Partition upkeep first runs this long after the worker starts (then every PARTITION_MAINTENANCE_INTERVAL_MS):
 * out of start-up's way (on PGlite it shares the one connection); the current month exists from the
 * migration and the DEFAULT partition takes anything else meanwhile.
 */
const PARTITION_UPKEEP_AFTER_START_MS = 10_000;

/** Schedules the worker registers at start (cron, UTC). */
export const SCHEDULES = [
  { queue: QUEUES.maintenance, cron: '*/10 * * * *' },
  { queue: QUEUES.providerHealth, cron: '*/5 * * * *' },
  { queue: QUEUES.deliveryStatusPoll, cron: '* * * * *' },
  { queue: QUEUES.monthlyStatements, cron: '15 0 1 * *' },
] as const;

/** The worker host's composition root. */
export function buildWorkerContainer(config: Config, logger: Logger, infra: Infrastructure, overrides: MessagingOverrides & { email?: EmailSender } = {}): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  bindInfrastructure(container, config, logger, infra, overrides.email ? { email: overrides.email } : {});
  bindMessaging(container, config, logger, overrides);
  // The express loops: every OTP job and a quiet tenant's first transactional one (lane-priority.ts), a few at a time;
  // two, so that a passcode queued while one waits for a vendor's answer is fetched by the other.
  const express = { minPriority: EXPRESS_MIN_PRIORITY, batchSize: Math.max(1, Math.ceil(config.workerConcurrency / 5)), fetchers: 2 };
  container.bind(WORKER.handlers).toResolvedValue((deliver) => deliverMessageHandler(deliver, config.workerConcurrency, config.deliveryFetchers, express), [MESSAGING.deliverMessage]);
  container.bind(WORKER.tasks).toResolvedValue((storage, clock): PeriodicTask => {
    const recover = new RecoverAbandonedDeliveries({ storage, clock });
    return {
      name: 'recover-abandoned-deliveries', everyMs: RECOVERY_SWEEP_MS,
      async run() {
        const { recovered } = await recover.execute();
        if (recovered.length > 0) logger.warn({ messageIds: recovered.slice(0, 20), count: recovered.length }, 'recovered deliveries abandoned by a dead worker');
      },
    };
  }, [INFRA.storage, INFRA.clock]);
  container.bind(WORKER.handlers).toResolvedValue((runtime, storage, apply) => deliveryStatusPollHandler(runtime, storage, apply, logger),
    [MESSAGING.runtime, INFRA.storage, MESSAGING.applyDeliveryReport]);
  container.bind(WORKER.handlers).toResolvedValue((check) => ({
    queue: QUEUES.providerHealth, batchSize: 1,
    async handle() { await check.executeAll(); },
  }), [MESSAGING.checkProviderHealth]);
  container.bind(WORKER.handlers).toResolvedValue(
    (database, clock, storage) => maintenanceHandler(new PostgresRateLimiter(database, clock), logger, async () => (await storage.idempotency.purgeExpired(clock.now())) + (await storage.sessionRevocations.purgeExpired(clock.now()))
      + (await storage.trackedLinks.purgeExpired(clock.now(), 5_000))), // expired tracked links (docs/links.md)
    [INFRA.database, INFRA.clock, INFRA.storage]);
  container.bind(WORKER.handlers).toResolvedValue(
    (deps, ids) => webhookDispatchHandler(new DispatchOutboundEvents({ ...deps, ids, concurrency: config.workerConcurrency }), config.workerConcurrency),
    [WEBHOOKS.attemptDeps, INFRA.ids]);
  container.bind(WORKER.handlers).toResolvedValue((deps) => webhookDeliverHandler(new DeliverWebhooks({ ...deps, concurrency: config.workerConcurrency }), config.workerConcurrency), [WEBHOOKS.attemptDeps]);
  container.bind(WORKER.handlers).toResolvedValue((storage, ids, clock) => monthlyStatementsHandler(new GenerateMonthlyStatements({ storage, ids, clock }), logger),
    [INFRA.storage, INFRA.ids, INFRA.clock]);
  container.bind(WORKER.handlers).toResolvedValue((storage, email) => lowBalanceAlertHandler(
    new SendLowBalanceAlert({ storage, email, threshold: config.lowBalanceThreshold, publicUrl: config.publicUrl }), config.workerConcurrency),
  [INFRA.storage, INFRA.email]);
  container.bind(WORKER.handlers).toResolvedValue((deps) => triggerFallbackHandler(new AdvanceTrigger(deps), config.workerConcurrency), [MESSAGING.sendDeps]);
  // Batches of WORKFLOW_STEP_BATCH: the set-wise paths (digest joins, sends) scale with the batch; the rest run WORKER_CONCURRENCY at a time.
  container.bind(WORKER.handlers).toResolvedValue((deps) => workflowStepHandler(new RunWorkflowStep(deps), WORKFLOW_STEP_BATCH,
    { joins: new JoinDigestsInBatch(deps), sends: new SendStepsInBatch(deps), concurrency: config.workerConcurrency }), [MESSAGING.sendDeps]);
  container.bind(WORKER.handlers).toResolvedValue((deps) => workflowFanOutHandler(new RunFanOut(deps), logger), [MESSAGING.sendDeps]);
  container.bind(WORKER.tasks).toResolvedValue((storage, clock): PeriodicTask => {
    // Delays have no job each: due ones resume set-wise, a chunk per transaction (core/use-cases/workflows/resume-due-delays.ts).
    const resume = new ResumeDueDelays({ storage, clock });
    return { name: 'resume-workflow-delays', everyMs: WORKFLOW_RESUME_TICK_MS, run: () => resume.execute() };
  }, [INFRA.storage, INFRA.clock]);
  container.bind(WORKER.tasks).toResolvedValue((deps): PeriodicTask => {
    const expire = new ExpireVerifications(deps);
    return { name: 'expire-verifications', everyMs: VERIFY_EXPIRY_SWEEP_MS, run: () => expire.execute() };
  }, [MESSAGING.verifyDeps]);
  // The same send deps as every other send path: an unread in-app step's fallback is priced, linked and timed like a send.
  container.bind(WORKER.handlers).toResolvedValue((deps) => inboxUnreadFallbackHandler(new AdvanceUnreadTrigger(deps), config.workerConcurrency), [MESSAGING.sendDeps]);
  container.bind(WORKER.handlers).toResolvedValue((deps) => verifyFallbackHandler(new AdvanceVerification(deps), config.workerConcurrency), [MESSAGING.verifyDeps]);
  container.bind(WORKER.handlers).toResolvedValue((storage, ids, clock) => contactImportHandler(new ProcessContactImport({ storage, ids, clock, csv: new CsvParseReader() }), logger),
    [INFRA.storage, INFRA.ids, INFRA.clock]);
  container.bind(WORKER.handlers).toResolvedValue((deps) => campaignRunHandler(new RunCampaign(deps), logger), [MESSAGING.sendDeps]);
  container.bind(WORKER.tasks).toResolvedValue((storage, clock, ids, webhooks): PeriodicTask => {
    // The release-time re-check: a recipient suppressed or opted out since scheduling is refused then (docs/consent.md).
    const release = new ReleaseScheduledMessages({ storage, clock, ids, webhooks, screen: consentReleaseScreen });
    return {
      name: 'release-scheduled-messages', everyMs: SCHEDULER_TICK_MS,
      async run() {
        const result = await release.execute();
        if (result.released + result.rejected + result.campaignsStarted > 0) logger.info(result, 'released scheduled messages');
      },
    };
  }, [INFRA.storage, INFRA.clock, INFRA.ids, WEBHOOKS.subscriptions]);
  container.bind(WORKER.tasks).toResolvedValue((routeStats, clock, storage, ids, database, providerRepository, secrets, subscriptions, directory): PeriodicTask => {
    // Learning routes (docs/routing.md): every shift is stored (route_shifts, the admin dashboard), an admin event in the audit log, and logged.
    const evaluate = new EvaluateRoutes({
      routeStats, clock, audit: { storage, ids }, onShift: (shift) => logger.warn({ ...shift }, `route shift: ${shift.provider} ${shift.country}/${shift.network} ${shift.direction}`),
    });
    // Then every stored shift (learned, or an administrator's pin) not yet announced goes out as routing.route_shifted to the organizations it affects.
    const publish = new PublishRouteShifts({
      routeStats, audience: new SqlRouteShiftAudience(database), storage, providers: providerRepository, clock, secrets, subscriptions,
      order: (channel, country, network) => directory.providersFor(channel as Channel, country, false, undefined, network).filter((p) => !p.organizationId).map((p) => p.name),
    });
    return {
      name: 'evaluate-routes', everyMs: config.routeEvaluationMs,
      async run() {
        await evaluate.execute();
        const published = await publish.execute();
        if (published.shifts > 0) logger.info(published, 'route shifts published as routing.route_shifted');
      },
    };
  }, [ROUTING.routeStats, INFRA.clock, INFRA.storage, INFRA.ids, INFRA.database, MESSAGING.providerRepository, INFRA.secrets, WEBHOOKS.subscriptions, MESSAGING.providers]);
  container.bind(WORKER.tasks).toResolvedValue((database, clock): PeriodicTask => {
    const maintenance = new PostgresPartitionMaintenance(database, clock, config.retention, openArchiveTarget(config.archive));
    return {
      name: 'partition-maintenance', everyMs: config.partitionMaintenanceMs, firstRunAfterMs: PARTITION_UPKEEP_AFTER_START_MS,
      async run() {
        const report = await maintenance.run();
        if (report.parkedInDefault > 0) logger.warn({ parked: report.parkedInDefault }, 'rows in a DEFAULT partition: ids outside every monthly partition (docs/operations.md)');
        if (report.archiveFailure) {
          logger.error({ archiveFailure: report.archiveFailure }, 'archive write failed: the partition stays detached and the next run retries it (docs/operations.md)');
        }
        if (report.awaitingArchive.length > 0) {
          logger.warn({ awaitingArchive: report.awaitingArchive },
            'partitions detached for an archive, but no archive target is configured: they stay detached until ARCHIVE_DIR or ARCHIVE_S3_BUCKET is set again, or they are marked drop_only (docs/operations.md)');
        }
        if (report.created.length + report.dropped.length + report.archived.length + report.deletedMessages + report.deletedWebhookDeliveries > 0) {
          logger.info({ ...report }, 'partition maintenance');
        }
      },
    };
  }, [INFRA.database, INFRA.clock]);
  return container;
}
