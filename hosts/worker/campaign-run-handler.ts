import { QUEUES } from '../../core/ports/job-queue.ts';
import type { RunCampaign } from '../../core/use-cases/campaigns/run-campaign.ts';
import type { Logger } from '../logger.ts';
import type { JobHandler } from './job-handler.ts';

/** campaign-run: starts due campaigns, fans out in batches and completes them; a retried job resumes at the cursor. */
export function campaignRunHandler(run: RunCampaign, logger: Logger): JobHandler {
  return {
    queue: QUEUES.campaignRun,
    batchSize: 2,
    async handle(data) {
      const campaignId = typeof data['campaignId'] === 'string' ? data['campaignId'] : null;
      const organizationId = typeof data['organizationId'] === 'string' ? data['organizationId'] : null;
      if (!campaignId || !organizationId) return;
      const campaign = await run.execute({ campaignId, organizationId });
      // One line per step (a batch of the fan-out, a completion, a failure): ids and state, never message content.
      if (campaign) {
        logger[campaign.status === 'FAILED' ? 'warn' : 'info']({ event: 'campaign.step', campaignId, organizationId, status: campaign.status,
          ...(campaign.failureReason ? { failureReason: campaign.failureReason } : {}) }, 'campaign step');
      }
    },
  };
}
