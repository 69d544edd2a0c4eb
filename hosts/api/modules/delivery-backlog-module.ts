import type { Container } from 'inversify';
import { GetDeliveryBacklog } from '../../../core/use-cases/system/get-delivery-backlog.ts';
import { INFRA } from '../../tokens.ts';
import { deliveryBacklogRoutes } from '../routes/delivery-backlog-routes.ts';
import { API } from '../tokens.ts';

/** Delivery backlog per lane: a tenant's own and the platform's (docs/adr/0036-delivery-lanes-and-fair-queueing.md). */
export function bindDeliveryBacklogModule(container: Container): void {
  container.bind(API.routes).toResolvedValue(
    (queues) => deliveryBacklogRoutes({ getDeliveryBacklog: new GetDeliveryBacklog({ queues }) }),
    [INFRA.queueMonitor]).inSingletonScope();
}
