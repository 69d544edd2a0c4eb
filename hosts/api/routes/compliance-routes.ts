import type { AddSuppression } from '../../../core/use-cases/compliance/add-suppression.ts';
import { AddSuppressionInput } from '../../../core/use-cases/compliance/add-suppression.ts';
import { CheckMessageInput, type CheckMessage } from '../../../core/use-cases/compliance/check-message.ts';
import type { GetComplianceSummary } from '../../../core/use-cases/compliance/get-compliance-summary.ts';
import { MAX_APPROVALS_LISTED, type ListApprovalOutcomes } from '../../../core/use-cases/compliance/list-approval-outcomes.ts';
import { ListSuppressionsInput, type ListSuppressions } from '../../../core/use-cases/compliance/list-suppressions.ts';
import type { RemoveSuppression } from '../../../core/use-cases/compliance/remove-suppression.ts';
import { ok, requireTenant, type RouteDefinition } from '../route.ts';

export interface ComplianceRouteDeps {
  checkMessage: CheckMessage;
  addSuppression: AddSuppression;
  listSuppressions: ListSuppressions;
  removeSuppression: RemoveSuppression;
  getComplianceSummary: GetComplianceSummary;
  listApprovalOutcomes: ListApprovalOutcomes;
}

const DENIED = {
  401: 'UNAUTHORIZED (API keys are not accepted here)', 403: 'FORBIDDEN (not a member, or the role lacks the permission)',
};

export function complianceRoutes(deps: ComplianceRouteDeps): RouteDefinition[] {
  return [
    {
      method: 'POST', path: '/compliance/check-message', tag: 'Compliance', summary: 'Check message text for spam, phishing, health data and opt-out wording',
      // A check stores nothing: every member may run it (campaign managers and developers draft the texts).
      auth: 'tenant', permission: 'compliance:read', body: CheckMessageInput,
      responses: {
        200: 'riskScore (0-100), issues [{ruleId, family, severity, matchedText, explanation, suggestion}], requiresApproval (riskScore >= 30), category',
        400: 'VALIDATION_ERROR or ORGANIZATION_REQUIRED', ...DENIED,
      },
      handler: async (input) => { requireTenant(input); return ok(deps.checkMessage.execute(input.body)); },
    },
    {
      method: 'GET', path: '/compliance/suppression', tag: 'Compliance', summary: 'The organization\'s suppression list, newest first, paged',
      auth: 'tenant', permission: 'compliance:read', query: ListSuppressionsInput,
      responses: { 200: '{items, page, limit, total, totalPages}', 400: 'VALIDATION_ERROR (page or limit) or ORGANIZATION_REQUIRED', ...DENIED },
      handler: async (input) => ok(await deps.listSuppressions.execute(requireTenant(input), input.query)),
    },
    {
      method: 'POST', path: '/compliance/suppression', tag: 'Compliance', summary: 'Stop messaging a phone or email (one channel, or all without channel)',
      auth: 'tenant', permission: 'compliance:write', body: AddSuppressionInput,
      responses: {
        201: 'The entry (phone in E.164, email lowercased, channel null = every channel)',
        400: 'VALIDATION_ERROR (neither phone nor email, an unreadable phone or email) or ORGANIZATION_REQUIRED', ...DENIED,
        409: 'CONFLICT (the same entry exists)',
      },
      handler: async (input) => ok(await deps.addSuppression.execute(requireTenant(input), input.body), 201),
    },
    {
      method: 'DELETE', path: '/compliance/suppression/:id', tag: 'Compliance', summary: 'Remove a suppression entry',
      auth: 'tenant', permission: 'compliance:write',
      responses: { 200: '{id, removed: true}', 400: 'ORGANIZATION_REQUIRED', ...DENIED, 404: 'NOT_FOUND (unknown id, or an entry of another organization)' },
      handler: async (input) => ok(await deps.removeSuppression.execute(requireTenant(input), input.params['id'] ?? '')),
    },
    {
      method: 'GET', path: '/compliance/summary', tag: 'Compliance', summary: 'Suppression count and pending approval requests of the organization',
      auth: 'tenant', permission: 'compliance:read',
      responses: { 200: '{suppressionCount, pendingApprovals}', 400: 'ORGANIZATION_REQUIRED', ...DENIED },
      handler: async (input) => ok(await deps.getComplianceSummary.execute(requireTenant(input))),
    },
    {
      method: 'GET', path: '/compliance/approvals', tag: 'Compliance', summary: 'The organization\'s approval requests and their outcome (with the reviewer\'s comment)',
      auth: 'tenant', permission: 'compliance:read',
      responses: { 200: `Approval requests, newest first, at most ${MAX_APPROVALS_LISTED}: {id, kind, subjectId, status, comment, decidedAt, createdAt}`, 400: 'ORGANIZATION_REQUIRED', ...DENIED },
      handler: async (input) => ok(await deps.listApprovalOutcomes.execute(requireTenant(input))),
    },
  ];
}
