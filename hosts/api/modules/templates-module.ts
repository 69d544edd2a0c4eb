import type { Container } from 'inversify';
import { PreviewMessageCost } from '../../../core/use-cases/messaging/preview-message-cost.ts';
import { CreateTemplate } from '../../../core/use-cases/templates/create-template.ts';
import { GetTemplate } from '../../../core/use-cases/templates/get-template.ts';
import { CheckMetaTemplate } from '../../../core/use-cases/templates/check-meta-template.ts';
import { SetMetaTemplate } from '../../../core/use-cases/templates/set-meta-template.ts';
import { PutTemplateVariant } from '../../../core/use-cases/templates/put-template-variant.ts';
import { DeleteTemplateVariant } from '../../../core/use-cases/templates/delete-template-variant.ts';
import { PreviewTemplateCost } from '../../../core/use-cases/templates/preview-template-cost.ts';
import { ListTemplates } from '../../../core/use-cases/templates/list-templates.ts';
import { MESSAGING } from '../../messaging-bindings.ts';
import { INFRA } from '../../tokens.ts';
import { messagePreviewRoutes } from '../routes/message-preview-routes.ts';
import { templateRoutes } from '../routes/template-routes.ts';
import { API } from '../tokens.ts';
import { ROUTING } from '../../routing-bindings.ts';

/** Templates, and the cost preview that renders them (it reads templates and pricing, and sends nothing). */
export function bindTemplatesModule(container: Container): void {
  container.bind(API.routes).toResolvedValue(
    (storage, ids, clock, runtime, pricing) => templateRoutes({
      putTemplateVariant: new PutTemplateVariant({ storage, ids, clock }),
      deleteTemplateVariant: new DeleteTemplateVariant({ storage, clock }),
      previewTemplateCost: new PreviewTemplateCost({ storage, pricing }),
      createTemplate: new CreateTemplate({ storage, ids, clock }),
      listTemplates: new ListTemplates({ storage }),
      getTemplate: new GetTemplate({ storage }),
      setMetaTemplate: new SetMetaTemplate({ storage, clock }),
      checkMetaTemplate: new CheckMetaTemplate({ storage, clock, catalog: { templatesFor: (organizationId) => runtime.whatsappTemplatesFor(organizationId) } }),
    }),
    [INFRA.storage, INFRA.ids, INFRA.clock, MESSAGING.runtime, MESSAGING.pricing]).inSingletonScope();
  container.bind(API.routes).toResolvedValue(
    (storage, pricing, optOutLinks, ownAccounts, networks, lookups) => messagePreviewRoutes({ previewMessageCost: new PreviewMessageCost({ storage, pricing, optOutLinks, ownAccounts, networks, lookups }) }),
    [INFRA.storage, MESSAGING.pricing, MESSAGING.optOutLinks, MESSAGING.ownAccountPricing, ROUTING.router, ROUTING.sendLookups]).inSingletonScope();
}
