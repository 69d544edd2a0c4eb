import { Container } from 'inversify';
import type Koa from 'koa';
import type { Config } from '../config.ts';
import type { Infrastructure } from '../infrastructure.ts';
import type { Logger } from '../logger.ts';
import type { EmailSender } from '../../core/ports/email-sender.ts';
import { bindInfrastructure } from '../shared-bindings.ts';
import { bindMessaging, type MessagingOverrides } from '../messaging-bindings.ts';
import { bindMessagingModule } from './modules/messaging-module.ts';
import { bindProvidersModule } from './modules/providers-module.ts';
import { INFRA } from '../tokens.ts';
import { createApp } from './app.ts';
import { bindApiKeysModule } from './modules/api-keys-module.ts';
import { bindSendersModule } from './modules/senders-module.ts';
import { bindConsentModule } from './modules/consent-module.ts';
import { bindVendorAccountsModule } from './modules/vendor-accounts-module.ts';
import { bindVerifyModule } from './modules/verify-module.ts';
import { bindConversationsModule } from './modules/conversations-module.ts';
import { bindDeliveryLogsModule } from './modules/delivery-logs-module.ts';
import { bindDeliveryBacklogModule } from './modules/delivery-backlog-module.ts';
import { bindTemplatesModule } from './modules/templates-module.ts';
import { bindComplianceModule } from './modules/compliance-module.ts';
import { bindAdminModule } from './modules/admin-module.ts';
import { withImpersonationAudit } from './middleware/impersonation-audit.ts';
import { withOrgAudit } from './audit/org-audit-decorator.ts';
import { AUDITED_ROUTES } from './audit/org-audit-routes.ts';
import { bindAuditLogModule } from './modules/audit-log-module.ts';
import { bindEventsModule } from './modules/events-module.ts';
import { bindAuthModule } from './modules/auth-module.ts';
import { bindTwoFactorModule } from './modules/two-factor-module.ts';
import { bindOrganizationsModule } from './modules/organizations-module.ts';
import { bindSystemModule } from './modules/system-module.ts';
import { bindBillingModule } from './modules/billing-module.ts';
import { bindContactsModule } from './modules/contacts-module.ts';
import { bindSegmentsModule } from './modules/segments-module.ts';
import { bindCampaignsModule } from './modules/campaigns-module.ts';
import { docsRoutes } from './routes/docs-routes.ts';
import { DEFAULT_WEB_ROOT } from './middleware/web-app.ts';
import { bindWebhooksModule } from './modules/webhooks-module.ts';
import { bindAnalyticsModule } from './modules/analytics-module.ts';
import { bindRoutingModule } from './modules/routing-module.ts';
import { bindInboxModule } from './modules/inbox-module.ts';
import { bindSsoModule } from './modules/sso-module.ts';
import { bindLinksModule } from './modules/links-module.ts';
import type { RouteDefinition } from './route.ts';
import { API } from './tokens.ts';

/** Adapters a caller may swap (tests use an in-memory email sender). */
export interface ApiOverrides extends MessagingOverrides {
  email?: EmailSender;
}

/** Every API module, in the order its routes are registered. */
const MODULES: ReadonlyArray<(container: Container) => void> = [
  bindSystemModule,
  bindAuthModule,
  bindTwoFactorModule,
  bindMessagingModule,
  bindProvidersModule,
  bindOrganizationsModule,
  bindApiKeysModule,
  bindSendersModule,
  bindConsentModule,
  bindVendorAccountsModule,
  bindVerifyModule,
  bindConversationsModule,
  bindDeliveryBacklogModule,
  bindDeliveryLogsModule,
  bindTemplatesModule,
  bindWebhooksModule,
  bindAnalyticsModule,
  bindBillingModule,
  bindComplianceModule,
  bindAdminModule,
  bindEventsModule,
  bindContactsModule,
  bindSegmentsModule,
  bindCampaignsModule,
  bindInboxModule,
  bindSsoModule,
  bindAuditLogModule,
  bindLinksModule,
];

/** The API host's composition root: the only place adapters, use cases and routes meet. */
export function buildApiContainer(config: Config, logger: Logger, infra: Infrastructure, overrides: ApiOverrides = {}): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  bindInfrastructure(container, config, logger, infra, overrides);
  bindMessaging(container, config, logger, overrides);
  for (const bindModule of MODULES) bindModule(container);
  bindRoutingModule(container, config);
  return container;
}

/** The Koa app with every module's routes, plus `extraRoutes` (benchmarks and tests), plus the API docs and the dashboard. */
export function buildApp(container: Container, extraRoutes: readonly RouteDefinition[] = [], options: { webRoot?: string | null } = {}): Koa {
  const config = container.get(INFRA.config);
  // Changes are recorded in the organization's audit log (docs/audit-log.md); writes made with an impersonation token also in the platform's (docs/admin.md).
  const all = [...container.getAll(API.routes).flat(), ...extraRoutes];
  const audited = withOrgAudit(all, AUDITED_ROUTES, container.get(API.recordOrgAuditEvent), container.get(INFRA.logger));
  const routes = withImpersonationAudit(audited, container.get(API.recordImpersonatedRequest), container.get(INFRA.logger));
  return createApp({
    routes: [...routes, ...docsRoutes(routes)],
    auth: { session: container.get(API.authenticateSession), apiKey: container.get(API.authenticateApiKey) },
    logger: container.get(INFRA.logger),
    metrics: container.get(API.metrics),
    bodyLimitBytes: config.bodyLimitBytes,
    hsts: config.publicUrl.startsWith('https://'),
    webRoot: options.webRoot === undefined ? DEFAULT_WEB_ROOT : options.webRoot,
  });
}
