import type { Container } from 'inversify';
import { ExportDeliveryLogs } from '../../../core/use-cases/delivery-logs/export-delivery-logs.ts';
import { ListDeliveryLogs } from '../../../core/use-cases/delivery-logs/list-delivery-logs.ts';
import { INFRA } from '../../tokens.ts';
import { deliveryLogRoutes } from '../routes/delivery-log-routes.ts';
import { API } from '../tokens.ts';

export function bindDeliveryLogsModule(container: Container): void {
  container.bind(API.routes).toResolvedValue(
    (storage, clock) => deliveryLogRoutes({
      listDeliveryLogs: new ListDeliveryLogs({ storage }),
      exportDeliveryLogs: new ExportDeliveryLogs({ storage, clock }),
    }),
    [INFRA.storage, INFRA.clock]).inSingletonScope();
}
