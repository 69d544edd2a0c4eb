import { CreateTemplateInput, type CreateTemplate } from '../../../core/use-cases/templates/create-template.ts';
import type { GetTemplate } from '../../../core/use-cases/templates/get-template.ts';
import type { CheckMetaTemplate } from '../../../core/use-cases/templates/check-meta-template.ts';
import { SetMetaTemplateInput, type SetMetaTemplate } from '../../../core/use-cases/templates/set-meta-template.ts';
import { ListTemplatesInput, MAX_TEMPLATES_LISTED, type ListTemplates } from '../../../core/use-cases/templates/list-templates.ts';
import { PutTemplateVariantInput, type PutTemplateVariant } from '../../../core/use-cases/templates/put-template-variant.ts';
import type { DeleteTemplateVariant } from '../../../core/use-cases/templates/delete-template-variant.ts';
import { PreviewTemplateCostInput, type PreviewTemplateCost } from '../../../core/use-cases/templates/preview-template-cost.ts';
import { ok, requireTenant, type RouteDefinition } from '../route.ts';

export interface TemplateRouteDeps {
  createTemplate: CreateTemplate;
  listTemplates: ListTemplates;
  getTemplate: GetTemplate;
  setMetaTemplate: SetMetaTemplate;
  checkMetaTemplate: CheckMetaTemplate;
  putTemplateVariant: PutTemplateVariant;
  deleteTemplateVariant: DeleteTemplateVariant;
  previewTemplateCost: PreviewTemplateCost;
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
      method: 'POST', path: '/templates/cost-preview', tag: 'Templates',
      summary: 'Per locale: SMS encoding, segments, price and the characters forcing UCS-2 of texts being edited or of a stored template (docs/templates.md)',
      auth: 'tenant', permission: 'templates:read', body: PreviewTemplateCostInput,
      responses: { 200: '{ channel, countryCode, currency, locales: [{ locale, status, encoding, segments, characters, perSegment, unitPrice, price, ucs2Characters, ucs2CharacterCount, transliteration? }] }',
        400: 'VALIDATION_ERROR or ORGANIZATION_REQUIRED', ...DENIED, 404: 'NOT_FOUND (templateId)' },
      handler: async (input) => ok(await deps.previewTemplateCost.execute(requireTenant(input), input.body)),
    },
    {
      method: 'PUT', path: '/templates/:id/variants/:locale', tag: 'Templates',
      summary: 'Set the template\'s text in one locale (BCP 47: tw, ee, gaa, fr, en-GH); high-risk categories wait for approval (docs/templates.md)',
      auth: 'tenant', permission: 'templates:write', body: PutTemplateVariantInput,
      responses: { 200: 'The template with its variants (and approvalRequestId when the variant waits for approval)',
        400: 'VALIDATION_ERROR (locale, body, subject, placeholders the template does not have) or ORGANIZATION_REQUIRED', ...DENIED, 404: 'NOT_FOUND' },
      handler: async (input) => {
        const tenant = requireTenant(input);
        return ok(await deps.putTemplateVariant.execute({ organizationId: tenant.organizationId, userId: tenant.userId }, input.params['id'] ?? '', input.params['locale'] ?? '', input.body));
      },
    },
    {
      method: 'DELETE', path: '/templates/:id/variants/:locale', tag: 'Templates', summary: 'Remove the template\'s text in one locale',
      auth: 'tenant', permission: 'templates:write',
      responses: { 200: 'The template with its remaining variants', 400: 'ORGANIZATION_REQUIRED', ...DENIED, 404: 'NOT_FOUND (template or variant)' },
      handler: async (input) => ok(await deps.deleteTemplateVariant.execute(requireTenant(input), input.params['id'] ?? '', input.params['locale'] ?? '')),
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
