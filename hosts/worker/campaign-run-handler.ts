import { QUEUES } from '../../core/ports/job-queue.ts';
import type { Campaign } from '../../core/domain/campaign.ts';
import type { RunCampaign } from '../../core/use-cases/campaigns/run-campaign.ts';
import type { Logger } from '../logger.ts';
import type { JobHandler } from './job-handler.ts';

/** Campaigns whose last logged state is remembered (oldest forgotten first; a forgotten one logs its state once more). */
const REMEMBERED = 1_000;

/**
 * What a step's log line stands for: a fan-out batch (each one is progress), or the state a campaign
 * stays in while the job polls (fan-out done, messages queued or held for a send window, which can
 * take hours at one poll a minute). Polls in an unchanged state log nothing (issue 35).
 */
function stateOf(campaign: Campaign): string {
  if (campaign.status === 'SENDING' && !campaign.fanOutDone) return `SENDING:fan-out:${campaign.progress.processed}`;
  return `${campaign.status}:${campaign.fanOutDone ? 'fanned-out' : 'not-started'}`;
}

/** campaign-run: starts due campaigns, fans out in batches and completes them; a retried job resumes at the cursor. */
export function campaignRunHandler(run: RunCampaign, logger: Logger): JobHandler {
  const lastLogged = new Map<string, string>();
  return {
    queue: QUEUES.campaignRun,
    batchSize: 2,
    async handle(data) {
      const campaignId = typeof data['campaignId'] === 'string' ? data['campaignId'] : null;
      const organizationId = typeof data['organizationId'] === 'string' ? data['organizationId'] : null;
      if (!campaignId || !organizationId) return;
      const campaign = await run.execute({ campaignId, organizationId });
      if (!campaign) return;
      // One line per change of state (a batch of the fan-out, the start of the wait for deliveries or a send
      // window, a completion, a failure): ids and state, never message content. A poll that changes nothing logs nothing.
      const state = stateOf(campaign);
      if (lastLogged.get(campaignId) === state) return;
      lastLogged.delete(campaignId);
      if (campaign.status === 'SENDING' || campaign.status === 'SCHEDULED') {
        lastLogged.set(campaignId, state);
        if (lastLogged.size > REMEMBERED) lastLogged.delete(lastLogged.keys().next().value!);
      }
      const waiting = campaign.status === 'SENDING' && campaign.fanOutDone;
      logger[campaign.status === 'FAILED' ? 'warn' : 'info']({ event: 'campaign.step', campaignId, organizationId, status: campaign.status,
        ...(waiting ? { waiting: 'messages queued or held for a send window; polled quietly until the state changes' } : {}),
        ...(campaign.failureReason ? { failureReason: campaign.failureReason } : {}) }, 'campaign step');
    },
  };
}
