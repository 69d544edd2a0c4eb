import { QUEUES } from '../../core/ports/job-queue.ts';
import type { RunCampaign } from '../../core/use-cases/campaigns/run-campaign.ts';
import type { JobHandler } from './job-handler.ts';

/** campaign-run: starts due campaigns, fans out in batches and completes them; a retried job resumes at the cursor. */
export function campaignRunHandler(run: RunCampaign): JobHandler {
  return {
    queue: QUEUES.campaignRun,
    batchSize: 2,
    async handle(data) {
      const campaignId = typeof data['campaignId'] === 'string' ? data['campaignId'] : null;
      const organizationId = typeof data['organizationId'] === 'string' ? data['organizationId'] : null;
      if (campaignId && organizationId) await run.execute({ campaignId, organizationId });
    },
  };
}
