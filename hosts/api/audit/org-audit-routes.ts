import type { RequestInput } from '../route.ts';
import type { RouteAudit } from './org-audit-decorator.ts';

const pick = (...fields: string[]) => (data: Record<string, unknown>) => Object.fromEntries(fields.filter((f) => data[f] !== undefined).map((f) => [f, data[f]]));
const filters = (_: Record<string, unknown>, input: RequestInput) => ({ filters: input.query });
const asObject = (value: unknown): Record<string, unknown> => (value && typeof value === 'object' ? value as Record<string, unknown> : {});
const listPick = (route: string) => ({ route, pickById: true });

/**
 * Every route that changes something of an organization, and how it is recorded in the organization's
 * audit log (docs/audit-log.md). Keyed `METHOD /path` as the route table declares it.
 * tests/http/org-audit-coverage.test.ts fails when a write route of the app is neither here nor in
 * AUDIT_EXEMPT_ROUTES, so a new route cannot silently skip the audit.
 */
export const AUDITED_ROUTES: Readonly<Record<string, RouteAudit>> = {
  'PATCH /organizations/current': { action: 'organization.updated', targetType: 'organization', targetId: null, before: { route: 'GET /organizations/current' } },
  'POST /organizations/invite': { action: 'member.invited', targetType: 'member' },
  'POST /api-keys': { action: 'api_key.created', targetType: 'api_key' },
  'PATCH /api-keys/:id': { action: 'api_key.updated', targetType: 'api_key', before: listPick('GET /api-keys') },
  'DELETE /api-keys/:id': { action: 'api_key.revoked', targetType: 'api_key', before: listPick('GET /api-keys') },
  'POST /templates': { action: 'template.created', targetType: 'template' },
  'PUT /templates/:id/variants/:locale': { action: 'template.updated', targetType: 'template', before: { route: 'GET /templates/:id' } },
  'DELETE /templates/:id/variants/:locale': { action: 'template.updated', targetType: 'template', before: { route: 'GET /templates/:id' } },
  'PUT /templates/:id/meta-template': { action: 'template.updated', targetType: 'template', before: { route: 'GET /templates/:id' } },
  'POST /templates/:id/whatsapp-check': { action: 'template.checked', targetType: 'template', after: pick('metaCheck') },
  'POST /vendor-accounts': { action: 'vendor_account.created', targetType: 'vendor_account' },
  'PATCH /vendor-accounts/:id': {
    action: 'vendor_account.updated', targetType: 'vendor_account', before: { route: 'GET /vendor-accounts/:id' },
    // The view never holds credentials: a replaced set shows as a redacted change, never its values.
    after: (data, input) => ({ ...data, ...(asObject(input.body)['credentials'] ? { credentials: 'replaced' } : {}) }),
  },
  'DELETE /vendor-accounts/:id': { action: 'vendor_account.deleted', targetType: 'vendor_account', before: { route: 'GET /vendor-accounts/:id' }, after: 'none' },
  'POST /vendor-accounts/:id/test-message': { action: 'vendor_account.tested', targetType: 'vendor_account', after: pick('status', 'ok') },
  'POST /sender-ids': { action: 'sender_id.requested', targetType: 'sender_id' },
  'DELETE /sender-ids/:id': { action: 'sender_id.deleted', targetType: 'sender_id', before: listPick('GET /sender-ids'), after: 'none' },
  'POST /webhook-endpoints': { action: 'webhook.created', targetType: 'webhook' },
  'PATCH /webhook-endpoints/:id': { action: 'webhook.updated', targetType: 'webhook', before: listPick('GET /webhook-endpoints') },
  'DELETE /webhook-endpoints/:id': { action: 'webhook.deleted', targetType: 'webhook', before: listPick('GET /webhook-endpoints'), after: 'none' },
  'POST /webhook-endpoints/:id/test': { action: 'webhook.tested', targetType: 'webhook', after: pick('status') },
  'POST /webhook-endpoints/:id/rotate-secret': { action: 'webhook.secret_rotated', targetType: 'webhook', after: () => ({ secret: 'rotated' }) },
  'POST /webhook-endpoints/:id/deliveries/:deliveryId/replay': { action: 'webhook.delivery_replayed', targetType: 'webhook_delivery', targetId: { param: 'deliveryId' }, after: pick('status') },
  'POST /messages/send': { action: 'message.sent_from_dashboard', targetType: 'message', membersOnly: true, after: pick('channel', 'status', 'templateId', 'category') },
  'POST /messages/bulk': { action: 'message.sent_from_dashboard', targetType: 'message_batch', targetId: null, membersOnly: true,
    after: (data) => ({ messages: Array.isArray(data['messages']) ? data['messages'].length : Array.isArray(data['items']) ? data['items'].length : null }) },
  'POST /messages/:id/cancel': { action: 'message.cancelled_from_dashboard', targetType: 'message', membersOnly: true, after: pick('status') },
  'POST /messages/cancel': { action: 'message.cancelled_from_dashboard', targetType: 'message_batch', targetId: null, membersOnly: true, after: pick('cancelled', 'count') },
  'POST /verify/start': { action: 'message.sent_from_dashboard', targetType: 'verification', membersOnly: true, after: pick('channel', 'status') },
  'POST /verify/:id/resend': { action: 'message.sent_from_dashboard', targetType: 'verification', membersOnly: true, after: pick('channel', 'status') },
  'POST /events/trigger': { action: 'message.sent_from_dashboard', targetType: 'event_trigger', membersOnly: true, after: pick('status', 'eventKey') },
  'POST /conversations/:id/reply': { action: 'message.sent_from_dashboard', targetType: 'conversation', after: pick('channel', 'status') },
  'PATCH /links/settings': { action: 'organization.updated', targetType: 'link_settings', targetId: null, before: { route: 'GET /links/settings' } },
  'POST /links/settings/domain/verify': { action: 'organization.updated', targetType: 'link_domain', targetId: null, before: { route: 'GET /links/settings' } },
  'PUT /routing/settings': { action: 'organization.updated', targetType: 'routing_settings', targetId: null, before: { route: 'GET /routing/settings' } },
  'PUT /organizations/current/two-factor': { action: 'organization.updated', targetType: 'two_factor_requirement', targetId: null, before: { route: 'GET /organizations/current/two-factor' } },
  'PUT /organizations/sso': { action: 'sso.updated', targetType: 'sso_connection', targetId: null, before: { route: 'GET /organizations/sso' }, secretFields: ['clientSecret'] },
  'POST /organizations/sso/domains': { action: 'sso.updated', targetType: 'sso_domain' },
  'POST /organizations/sso/domains/:id/verify': { action: 'sso.domain_verified', targetType: 'sso_domain' },
  'DELETE /organizations/sso/domains/:id': { action: 'sso.updated', targetType: 'sso_domain', after: 'none' },
  'PUT /verify/settings': { action: 'verify.settings_updated', targetType: 'verify_settings', targetId: null, before: { route: 'GET /verify/settings' } },
  'GET /delivery-logs/export': { action: 'export.created', targetType: 'delivery_logs', targetId: null, after: filters },
  'GET /audit-log/export': { action: 'export.created', targetType: 'audit_log', targetId: null, after: filters },
  'PUT /contacts/:id/preferences': { action: 'consent.changed', targetType: 'contact', before: { route: 'GET /contacts/:id/preferences' } },
  'POST /contacts/:id/opt-out': { action: 'consent.changed', targetType: 'contact', before: { route: 'GET /contacts/:id' } },
  'POST /contacts': { action: 'contact.created', targetType: 'contact' },
  'PATCH /contacts/:id': { action: 'contact.updated', targetType: 'contact', before: { route: 'GET /contacts/:id' } },
  'DELETE /contacts/:id': { action: 'contact.deleted', targetType: 'contact', before: { route: 'GET /contacts/:id' }, after: 'none' },
  'POST /contacts/import': { action: 'contact.import_started', targetType: 'contact_import', after: pick('status', 'filename') },
  'POST /compliance/suppression': { action: 'suppression.added', targetType: 'suppression' },
  'DELETE /compliance/suppression/:id': { action: 'suppression.removed', targetType: 'suppression', after: 'none' },
  'POST /conversations/keywords': { action: 'keyword.created', targetType: 'keyword' },
  'DELETE /conversations/keywords/:id': { action: 'keyword.deleted', targetType: 'keyword', before: listPick('GET /conversations/keywords'), after: 'none' },
  'POST /events': { action: 'event.created', targetType: 'event' },
  'PATCH /events/:id': { action: 'event.updated', targetType: 'event', before: { route: 'GET /events/:id' } },
  'PUT /events/:id/workflow': { action: 'event.updated', targetType: 'event_workflow', before: { route: 'GET /events/:id/workflow' } },
  'POST /workflow-runs/failure-alert/acknowledge': { action: 'workflow.failures_acknowledged', targetType: 'workflow_failure_alert', targetId: null, after: (data) => ({ acknowledged: data['acknowledged'] ?? null }) },
  'POST /events/:id/deactivate': { action: 'event.deactivated', targetType: 'event', before: { route: 'GET /events/:id' } },
  'POST /segments': { action: 'segment.created', targetType: 'segment' },
  'POST /campaigns': { action: 'campaign.created', targetType: 'campaign' },
  'POST /campaigns/:id/send': { action: 'campaign.sent', targetType: 'campaign', after: (data) => ({ message: data['message'] ?? null }) },
  'POST /campaigns/:id/cancel': { action: 'campaign.cancelled', targetType: 'campaign', after: pick('status') },
  'POST /campaigns/:id/pause': { action: 'campaign.paused', targetType: 'campaign', after: pick('status') },
  'POST /campaigns/:id/resume': { action: 'campaign.resumed', targetType: 'campaign', after: pick('status') },
  'POST /billing/top-up': { action: 'billing.top_up_started', targetType: 'payment', targetId: { result: 'reference' }, after: pick('status', 'amount', 'paymentMethod') },
  'POST /billing/verify-payment': { action: 'billing.payment_verified', targetType: 'payment', targetId: { result: 'reference' }, after: pick('status', 'amount') },
  'POST /inbox/settings/secret': { action: 'inbox.secret_rotated', targetType: 'inbox_settings', targetId: null, after: () => ({ secret: 'rotated' }) },
  'POST /admin/tenants/:id/impersonate': {
    action: 'impersonation.started', targetType: 'organization', staff: true, organization: (input) => input.params['id'] ?? null, after: pick('expiresAt'),
  },
  'POST /admin/exit-impersonation': {
    action: 'impersonation.ended', targetType: 'organization', targetId: null, organization: (input) => input.user?.impersonatedOrganizationId ?? null, after: 'none',
  },
};

const PUBLIC = 'no organization member or key acts: a public or signed callback';
const SIGN_IN = 'a step of signing in; changes nothing of an organization (failures count toward the sign-in lockout)';
const OWN_FACTORS = 'a user\'s own second factors, which belong to no one organization; not recorded in organizations\' logs yet (docs/audit-log.md, "Not recorded yet")';
const PLATFORM = 'platform administration (no tenant principal): recorded in the platform audit log, GET /admin/audit-log';
const NO_CHANGE = 'changes nothing: a computation or a check';

/** Write routes that are deliberately not recorded, each with the reason (reviewed with every new route). */
export const AUDIT_EXEMPT_ROUTES: Readonly<Record<string, string>> = {
  'POST /auth/register': 'creates a user before any organization membership exists',
  'POST /auth/login': 'signs in; changes nothing of an organization (login throttling has its own records)',
  'POST /auth/logout': 'ends the caller\'s own session; no organization',
  'POST /auth/forgot-password': PUBLIC,
  'POST /auth/reset-password': 'a user\'s own password, no organization (the password never reaches any log)',
  'POST /auth/login/two-factor': SIGN_IN,
  'POST /auth/login/two-factor/passkey-options': SIGN_IN,
  'POST /auth/login/two-factor/enrol/totp': OWN_FACTORS,
  'POST /auth/login/two-factor/enrol/totp/confirm': OWN_FACTORS,
  'POST /auth/login/two-factor/enrol/passkey-options': OWN_FACTORS,
  'POST /auth/login/two-factor/enrol/passkey': OWN_FACTORS,
  'POST /auth/two-factor/totp': OWN_FACTORS,
  'POST /auth/two-factor/totp/confirm': OWN_FACTORS,
  'POST /auth/two-factor/passkeys/options': OWN_FACTORS,
  'POST /auth/two-factor/passkeys': OWN_FACTORS,
  'POST /auth/two-factor/passkeys/:id/remove': OWN_FACTORS,
  'POST /auth/two-factor/recovery-codes': OWN_FACTORS,
  'POST /auth/two-factor/disable': OWN_FACTORS,
  'POST /auth/sso/start': SIGN_IN,
  'POST /auth/sso/callback': 'signs in through the organization\'s identity provider; a member provisioned just in time is recorded by the use case (sso.member_provisioned)',
  'POST /providers/callbacks/:vendor': PUBLIC,
  'POST /providers/callbacks/:vendor/:callbackId': PUBLIC,
  'POST /providers/:id/health-check': 'a platform provider health probe (user auth, no organization); changes no configuration',
  'POST /u/:token': 'the contact on the hosted opt-out page (the token is the credential): the contact\'s consent history records it, no member or key acts',
  'POST /billing/webhooks/gateway': PUBLIC,
  'POST /billing/sandbox-checkout/:reference': PUBLIC,
  'POST /inbox/v1/items/mark': 'a subscriber\'s inbox read state (subscriber hash, not a member or key)',
  'POST /inbox/v1/items/:id/mark': 'a subscriber\'s inbox read state (subscriber hash, not a member or key)',
  'POST /inbox/v1/mark-all': 'a subscriber\'s inbox read state (subscriber hash, not a member or key)',
  'POST /inbox/settings/subscriber-hash': NO_CHANGE,
  'POST /messages/preview': NO_CHANGE,
  'POST /templates/cost-preview': NO_CHANGE,
  'POST /compliance/check-message': NO_CHANGE,
  'POST /segments/preview': NO_CHANGE,
  'POST /verify/check': 'end-user traffic (a recipient\'s code being checked); the outcome is on the verification, never the code',
  'POST /verify/:id/cancel': 'verification flow traffic of the integration; the outcome is on the verification',
  'POST /conversations/:id/read': 'a member\'s read marker, UI state',
  'POST /admin/providers': PLATFORM,
  'PUT /admin/network-routes': PLATFORM,
  'DELETE /admin/network-routes/:id': PLATFORM,
  'POST /routing/lookups': 'a paid number lookup: traffic, not a change of settings; its charge is on the wallet ledger',
  'PATCH /admin/providers/:id': PLATFORM,
  'POST /admin/providers/:id/test-message': PLATFORM,
  'DELETE /admin/providers/:id': PLATFORM,
  'POST /admin/inbound-numbers': PLATFORM,
  'DELETE /admin/inbound-numbers/:id': PLATFORM,
  'PUT /admin/send-windows': PLATFORM,
  'POST /admin/tenants/:id/pause': PLATFORM,
  'POST /admin/tenants/:id/resume': PLATFORM,
  'POST /admin/approvals/:id/approve': PLATFORM,
  'POST /admin/approvals/:id/reject': PLATFORM,
  'PATCH /admin/tenants/:id/delivery-limits': PLATFORM,
};
