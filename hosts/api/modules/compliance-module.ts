import type { Container } from 'inversify';
import { AddSuppression } from '../../../core/use-cases/compliance/add-suppression.ts';
import { CheckMessage } from '../../../core/use-cases/compliance/check-message.ts';
import { GetComplianceSummary } from '../../../core/use-cases/compliance/get-compliance-summary.ts';
import { ListApprovalOutcomes } from '../../../core/use-cases/compliance/list-approval-outcomes.ts';
import { ListSuppressions } from '../../../core/use-cases/compliance/list-suppressions.ts';
import { RemoveSuppression } from '../../../core/use-cases/compliance/remove-suppression.ts';
import { INFRA } from '../../tokens.ts';
import { complianceRoutes } from '../routes/compliance-routes.ts';
import { API } from '../tokens.ts';

/** Tenant compliance: the message check, the suppression list, the summary and approval outcomes. */
export function bindComplianceModule(container: Container): void {
  container.bind(API.routes).toResolvedValue(
    (storage, ids, clock, config) => complianceRoutes({
      checkMessage: new CheckMessage({ ownLinkBases: [config.linkBaseUrl] }),
      addSuppression: new AddSuppression({ storage, ids, clock }),
      listSuppressions: new ListSuppressions({ storage }),
      removeSuppression: new RemoveSuppression({ storage }),
      getComplianceSummary: new GetComplianceSummary({ storage }),
      listApprovalOutcomes: new ListApprovalOutcomes({ storage }),
    }),
    [INFRA.storage, INFRA.ids, INFRA.clock, INFRA.config]).inSingletonScope();
}
