import type { Container } from 'inversify';
import { GetAnalyticsCosts } from '../../../core/use-cases/analytics/get-analytics-costs.ts';
import { GetAnalyticsOverview } from '../../../core/use-cases/analytics/get-analytics-overview.ts';
import { GetAnalyticsRecommendations } from '../../../core/use-cases/analytics/get-analytics-recommendations.ts';
import { ListAnalyticsFailures } from '../../../core/use-cases/analytics/list-analytics-failures.ts';
import { MESSAGING } from '../../messaging-bindings.ts';
import { SqlNetworkAnalyticsRepository } from '../../../adapters/postgres/sql-routing-repositories.ts';
import { INFRA } from '../../tokens.ts';
import { analyticsRoutes } from '../routes/analytics-routes.ts';
import { API } from '../tokens.ts';

/** Analytics: overview, recommendations, costs and failures, read from delivery logs and the ledger. */
export function bindAnalyticsModule(container: Container): void {
  container.bind(API.routes).toResolvedValue(
    (storage, clock, pricing, providers, database) => analyticsRoutes({
      overview: new GetAnalyticsOverview({
        storage, clock, outboxProviders: async () => (await providers.list()).filter((p) => p.vendor === 'outbox').map((p) => p.name),
      }),
      recommendations: new GetAnalyticsRecommendations({ storage, pricing, clock, networks: new SqlNetworkAnalyticsRepository(database) }),
      costs: new GetAnalyticsCosts({ storage, clock }),
      failures: new ListAnalyticsFailures({ storage }),
    }),
    [INFRA.storage, INFRA.clock, MESSAGING.pricing, MESSAGING.providerRepository, INFRA.database]).inSingletonScope();
}
