import { CreateTemplateInput, type CreateTemplate } from '../../../core/use-cases/templates/create-template.ts';
import type { GetTemplate } from '../../../core/use-cases/templates/get-template.ts';
import type { CheckMetaTemplate } from '../../../core/use-cases/templates/check-meta-template.ts';
import { SetMetaTemplateInput, type SetMetaTemplate } from '../../../core/use-cases/templates/set-meta-template.ts';
import { ListTemplatesInput, MAX_TEMPLATES_LISTED, type ListTemplates } from '../../../core/use-cases/templates/list-templates.ts';
import { ok, requireTenant, type RouteDefinition } from '../route.ts';

export interface TemplateRouteDeps {
  createTemplate: CreateTemplate;
  listTemplates: ListTemplates;
  getTemplate: GetTemplate;
  setMetaTemplate: SetMetaTemplate;
  checkMetaTemplate: CheckMetaTemplate;
}

const DENIED = {
  401: 'UNAUTHORIZED (API keys are not accepted here)', 403: 'FORBIDDEN (not a member, or the role lacks the permission)',
};

export function templateRoutes(deps: TemplateRouteDeps): RouteDefinition[] {
  return [
    {
      method: 'GET', path: '/templates', tag: 'Templates', summary: 'The organization\'s message templates, newest first',
      auth: 'tenant', permission: 'templates:read', query: ListTemplatesInput,
      responses: {
        200: `Templates (at most ${MAX_TEMPLATES_LISTED}), newest first; channel and status filter the newest ${MAX_TEMPLATES_LISTED}`,
        400: 'VALIDATION_ERROR (a bad filter) or ORGANIZATION_REQUIRED', ...DENIED,
      },
      handler: async (input) => ok(await deps.listTemplates.execute(requireTenant(input), input.query)),
    },
    {
      method: 'POST', path: '/templates', tag: 'Templates', summary: 'Create a message template (high-risk categories wait for approval)',
      auth: 'tenant', permission: 'templates:write', body: CreateTemplateInput,
      responses: {
        201: 'The template; APPROVED, or PENDING_APPROVAL with `approvalRequestId` for MARKETING, FINTECH, HEALTHCARE and INSURANCE',
        400: 'VALIDATION_ERROR (fieldErrors name the field: variables not matching the placeholders, subject on a non-EMAIL template ...) or ORGANIZATION_REQUIRED',
        ...DENIED,
      },
      handler: async (input) => {
        const tenant = requireTenant(input);
        return ok(await deps.createTemplate.execute({ organizationId: tenant.organizationId, userId: tenant.userId }, input.body), 201);
      },
    },
    {
      method: 'GET', path: '/templates/:id', tag: 'Templates', summary: 'One message template',
      auth: 'tenant', permission: 'templates:read',
      responses: { 200: 'The template', 400: 'ORGANIZATION_REQUIRED', ...DENIED, 404: 'NOT_FOUND (unknown id, or a template of another organization)' },
      handler: async (input) => ok(await deps.getTemplate.execute(requireTenant(input), input.params['id'] ?? '')),
    },
    {
      method: 'PUT', path: '/templates/:id/meta-template', tag: 'Templates',
      summary: 'Set (or with null remove) the Meta template a WHATSAPP template goes as outside the 24-hour window (docs/whatsapp-templates.md)',
      auth: 'tenant', permission: 'templates:write', body: SetMetaTemplateInput,
      responses: {
        200: 'The template with its metaTemplate; metaCheck is cleared until the next check',
        400: 'VALIDATION_ERROR (not a WHATSAPP template, a parameter that is not a variable of the template, a bad name or language code) or ORGANIZATION_REQUIRED',
        ...DENIED, 404: 'NOT_FOUND',
      },
      handler: async (input) => ok(await deps.setMetaTemplate.execute(requireTenant(input), input.params['id'] ?? '', input.body)),
    },
    {
      method: 'POST', path: '/templates/:id/whatsapp-check', tag: 'Templates',
      summary: 'Check the template\'s Meta template against the WhatsApp Business Account\'s templates and record the result',
      auth: 'tenant', permission: 'templates:write',
      responses: {
        200: 'The template with metaCheck: APPROVED, PENDING, REJECTED, PAUSED, DISABLED, MISSING or MISMATCH (parameter counts), with detail and checkedAt',
        400: 'VALIDATION_ERROR (not a WHATSAPP template, or no metaTemplate) or ORGANIZATION_REQUIRED', ...DENIED, 404: 'NOT_FOUND',
        503: 'PROVIDER_UNAVAILABLE (no WhatsApp account with a businessAccountId, or Meta could not be read)',
      },
      handler: async (input) => ok(await deps.checkMetaTemplate.execute(requireTenant(input), input.params['id'] ?? '')),
    },
  ];
}
