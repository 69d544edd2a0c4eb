import type { Container } from 'inversify';
import { CancelCampaign } from '../../../core/use-cases/campaigns/cancel-campaign.ts';
import { CreateCampaign } from '../../../core/use-cases/campaigns/create-campaign.ts';
import { EstimateCampaign } from '../../../core/use-cases/campaigns/estimate-campaign.ts';
import { GetCampaign } from '../../../core/use-cases/campaigns/get-campaign.ts';
import { ListCampaigns } from '../../../core/use-cases/campaigns/list-campaigns.ts';
import { PauseCampaign } from '../../../core/use-cases/campaigns/pause-campaign.ts';
import { ResumeCampaign } from '../../../core/use-cases/campaigns/resume-campaign.ts';
import { SendCampaign } from '../../../core/use-cases/campaigns/send-campaign.ts';
import { MESSAGING } from '../../messaging-bindings.ts';
import { INFRA } from '../../tokens.ts';
import { campaignRoutes } from '../routes/campaign-routes.ts';
import { API } from '../tokens.ts';

/** Campaigns: create, estimate, send (the worker fans out), pause, resume, cancel. */
export function bindCampaignsModule(container: Container): void {
  container.bind(API.routes).toResolvedValue(
    (storage, ids, clock, pricing, fraud, optOutLinks, ownAccounts, linkTracking, sendDeps) => campaignRoutes({
      createCampaign: new CreateCampaign({ storage, ids, clock }),
      listCampaigns: new ListCampaigns({ storage, clock }),
      getCampaign: new GetCampaign({ storage, clock }),
      // The send deps' networks and lookups (undefined with NETWORK_ROUTING=off or no lookup vendor): priced and estimated as the fan-out will.
      estimateCampaign: new EstimateCampaign({ storage, pricing, clock, fraud, optOutLinks, ownAccounts, linkTracking, networks: sendDeps.networks, lookups: sendDeps.lookups }),
      sendCampaign: new SendCampaign({ storage, pricing, clock, fraud, optOutLinks, ownAccounts, networks: sendDeps.networks, lookups: sendDeps.lookups }),
      cancelCampaign: new CancelCampaign({ storage, clock }),
      pauseCampaign: new PauseCampaign({ storage, clock }),
      resumeCampaign: new ResumeCampaign({ storage, clock }),
    }),
    [INFRA.storage, INFRA.ids, INFRA.clock, MESSAGING.pricing, MESSAGING.fraudLimits, MESSAGING.optOutLinks, MESSAGING.ownAccountPricing, MESSAGING.linkTracking, MESSAGING.sendDeps]).inSingletonScope();
}
