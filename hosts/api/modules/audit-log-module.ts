import type { Container } from 'inversify';
import { ExportOrgAuditLog } from '../../../core/use-cases/audit/export-org-audit-log.ts';
import { ListOrgAuditLog } from '../../../core/use-cases/audit/list-org-audit-log.ts';
import { RecordOrgAuditEvent } from '../../../core/use-cases/audit/record-org-audit-event.ts';
import { VerifyOrgAuditLog } from '../../../core/use-cases/audit/verify-org-audit-log.ts';
import { INFRA } from '../../tokens.ts';
import { auditLogRoutes } from '../routes/audit-log-routes.ts';
import { API } from '../tokens.ts';

/** The organization's audit log (docs/audit-log.md): its routes, and the recorder every audited route goes through. */
export function bindAuditLogModule(container: Container): void {
  container.bind(API.routes).toResolvedValue((storage, clock) => auditLogRoutes({
    listOrgAuditLog: new ListOrgAuditLog({ storage }),
    exportOrgAuditLog: new ExportOrgAuditLog({ storage, clock }),
    verifyOrgAuditLog: new VerifyOrgAuditLog({ storage, clock }),
  }), [INFRA.storage, INFRA.clock]).inSingletonScope();
  container.bind(API.recordOrgAuditEvent).toResolvedValue((storage, clock) => new RecordOrgAuditEvent({ storage, clock }), [INFRA.storage, INFRA.clock]).inSingletonScope();
}
