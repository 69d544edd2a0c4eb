import { ListSendWindows } from '../../../core/use-cases/admin/list-send-windows.ts';
import { ReplaceSendWindows } from '../../../core/use-cases/admin/replace-send-windows.ts';
import { MESSAGING } from '../../messaging-bindings.ts';
import type { Container } from 'inversify';
import { DecideApproval } from '../../../core/use-cases/admin/decide-approval.ts';
import { ExitImpersonation } from '../../../core/use-cases/admin/exit-impersonation.ts';
import { GetPlatformRevenue } from '../../../core/use-cases/admin/get-platform-revenue.ts';
import { ImpersonateTenant } from '../../../core/use-cases/admin/impersonate-tenant.ts';
import { ListAuditLog } from '../../../core/use-cases/admin/list-audit-log.ts';
import { ListPendingApprovals } from '../../../core/use-cases/admin/list-pending-approvals.ts';
import { ListTenants } from '../../../core/use-cases/admin/list-tenants.ts';
import { RecordImpersonatedRequest } from '../../../core/use-cases/admin/record-impersonated-request.ts';
import { SetTenantPaused } from '../../../core/use-cases/admin/set-tenant-paused.ts';
import { INFRA } from '../../tokens.ts';
import { adminRoutes } from '../routes/admin-routes.ts';
import { deliveryLimitRoutes } from '../routes/delivery-limit-routes.ts';
import { GetTenantDeliveryLimits } from '../../../core/use-cases/admin/get-tenant-delivery-limits.ts';
import { SetTenantDeliveryLimits } from '../../../core/use-cases/admin/set-tenant-delivery-limits.ts';
import { API } from '../tokens.ts';

/** Platform administration: revenue, tenants, pause/resume, impersonation, approvals, audit log. */
export function bindAdminModule(container: Container): void {
  container.bind(API.routes).toResolvedValue(
    (config, storage, sessions, ids, clock, timing) => adminRoutes({
      getPlatformRevenue: new GetPlatformRevenue({ storage }),
      listTenants: new ListTenants({ storage }),
      setTenantPaused: new SetTenantPaused({ storage, ids, clock }),
      impersonateTenant: new ImpersonateTenant({ storage, sessions, ids, clock }),
      exitImpersonation: new ExitImpersonation({ storage, sessions, ids, clock, sessionTtlSeconds: config.sessionTtlSeconds }),
      listPendingApprovals: new ListPendingApprovals({ storage }),
      decideApproval: new DecideApproval({ storage, ids, clock }),
      listAuditLog: new ListAuditLog({ storage }),
      listSendWindows: new ListSendWindows({ storage }),
      replaceSendWindows: new ReplaceSendWindows({ storage, ids, clock, onChange: () => timing.windows?.invalidate?.() }),
    }),
    [INFRA.config, INFRA.storage, INFRA.sessions, INFRA.ids, INFRA.clock, MESSAGING.sendTiming]).inSingletonScope();
  container.bind(API.routes).toResolvedValue((storage, limits, ids, clock) => deliveryLimitRoutes({
    getTenantDeliveryLimits: new GetTenantDeliveryLimits({ storage, limits }),
    setTenantDeliveryLimits: new SetTenantDeliveryLimits({ storage, limits, ids, clock }),
  }), [INFRA.storage, INFRA.deliveryLimits, INFRA.ids, INFRA.clock]).inSingletonScope();
  container.bind(API.recordImpersonatedRequest).toResolvedValue(
    (storage, ids, clock) => new RecordImpersonatedRequest({ storage, ids, clock }), [INFRA.storage, INFRA.ids, INFRA.clock]).inSingletonScope();
}
