import type { CancelVerification } from '../../../core/use-cases/verify/cancel-verification.ts';
import { CheckVerificationInput, type CheckVerification } from '../../../core/use-cases/verify/check-verification.ts';
import { ListVerificationsQuery, type GetVerifications } from '../../../core/use-cases/verify/get-verifications.ts';
import { VerifyAnalyticsQuery, type GetVerifyAnalytics } from '../../../core/use-cases/verify/get-verify-analytics.ts';
import { ResendVerificationInput, type ResendVerification } from '../../../core/use-cases/verify/resend-verification.ts';
import { StartVerificationInput, type StartVerification } from '../../../core/use-cases/verify/start-verification.ts';
import { VerifySettingsInput, type ManageVerifySettings } from '../../../core/use-cases/verify/verify-settings.ts';
import { ok, requireTenant, type RouteDefinition } from '../route.ts';
import { sendContext } from './message-routes.ts';

export interface VerifyRouteDeps {
  start: StartVerification;
  check: CheckVerification;
  resend: ResendVerification;
  cancel: CancelVerification;
  get: GetVerifications;
  settings: ManageVerifySettings;
  analytics: GetVerifyAnalytics;
}

const DENIED = { 401: 'UNAUTHORIZED', 403: 'FORBIDDEN (role or API key scope verify:send missing)' };
const KEYED = { auth: 'tenant-or-api-key' as const, apiKeyScope: 'verify:send' as const };

/** Verify (docs/verify.md): one-time passcodes over SMS, WhatsApp, voice and email. */
export function verifyRoutes(deps: VerifyRouteDeps): RouteDefinition[] {
  return [
    {
      method: 'POST', path: '/verify/start', tag: 'Verify', summary: 'Send a one-time passcode (ordered channel fallback; SMS-pumping rules first)',
      ...KEYED, permission: 'verify:send', body: StartVerificationInput,
      responses: {
        201: 'The verification (never the code); a retried idempotencyKey answers the first one', 400: 'VALIDATION_ERROR', ...DENIED,
        402: 'INSUFFICIENT_BALANCE (nothing left behind)', 422: 'VERIFY_COUNTRY_NOT_ALLOWED, VERIFY_PREFIX_BLOCKED', 429: 'VERIFY_RATE_LIMITED (Retry-After)',
      },
      handler: async (input) => {
        const result = await deps.start.execute(sendContext(input), input.body);
        return ok(result.verification, result.replayed ? 200 : 201);
      },
    },
    {
      method: 'POST', path: '/verify/check', tag: 'Verify', summary: 'Check a code (counted before compared; approved at most once)',
      ...KEYED, permission: 'verify:send', body: CheckVerificationInput,
      responses: { 200: '{ id, status, valid, remainingAttempts }', 400: 'VALIDATION_ERROR', ...DENIED, 404: 'NOT_FOUND (no such verification, or none pending for `to`)' },
      handler: async (input) => ok(await deps.check.execute(requireTenant(input), input.body)),
    },
    {
      method: 'POST', path: '/verify/:id/resend', tag: 'Verify', summary: 'Send a new code (the previous one stops working)',
      ...KEYED, permission: 'verify:send', body: ResendVerificationInput,
      responses: { 200: 'The verification', ...DENIED, 404: 'NOT_FOUND', 409: 'CONFLICT (not pending)', 422: 'VERIFY_MAX_SENDS', 429: 'VERIFY_RESEND_COOLDOWN (Retry-After)' },
      handler: async (input) => ok(await deps.resend.execute(sendContext(input), input.params['id'] ?? '', input.body)),
    },
    {
      method: 'POST', path: '/verify/:id/cancel', tag: 'Verify', summary: 'Cancel a pending verification',
      ...KEYED, permission: 'verify:send',
      responses: { 200: 'The verification, CANCELED', ...DENIED, 404: 'NOT_FOUND', 409: 'CONFLICT (already decided)' },
      handler: async (input) => ok(await deps.cancel.execute(requireTenant(input), input.params['id'] ?? '')),
    },
    {
      method: 'GET', path: '/verify/settings', tag: 'Verify', summary: 'The organization\'s Verify settings (SMS-pumping rules, defaults)',
      auth: 'tenant', permission: 'verify:read',
      responses: { 200: 'Settings', ...DENIED },
      handler: async (input) => ok(await deps.settings.get(requireTenant(input))),
    },
    {
      method: 'PUT', path: '/verify/settings', tag: 'Verify', summary: 'Change the Verify settings (audited)',
      auth: 'tenant', permission: 'verify:settings', body: VerifySettingsInput,
      responses: { 200: 'Settings', 400: 'VALIDATION_ERROR', ...DENIED },
      handler: async (input) => {
        const tenant = requireTenant(input);
        return ok(await deps.settings.put({ organizationId: tenant.organizationId, userId: tenant.userId ?? '' }, input.body));
      },
    },
    {
      method: 'GET', path: '/verify/analytics', tag: 'Verify', summary: 'Conversion (approved / started) by channel, country and hour',
      auth: 'tenant', permission: 'verify:read', query: VerifyAnalyticsQuery,
      responses: { 200: '{ starts, approvals, conversionRate (a percentage, 1 decimal; null without starts), byChannel, byCountry, perHour }', 400: 'VALIDATION_ERROR (days 1-90)', ...DENIED },
      handler: async (input) => ok(await deps.analytics.execute(requireTenant(input), input.query)),
    },
    {
      method: 'GET', path: '/verify', tag: 'Verify', summary: 'Recent verifications, newest first',
      auth: 'tenant', permission: 'verify:read', query: ListVerificationsQuery,
      responses: { 200: '{ items } (at most 100)', 400: 'VALIDATION_ERROR', ...DENIED },
      handler: async (input) => ok(await deps.get.list(requireTenant(input), input.query)),
    },
    {
      method: 'GET', path: '/verify/:id', tag: 'Verify', summary: 'One verification with its sends and their delivery status',
      ...KEYED, permission: 'verify:read',
      responses: { 200: 'The verification', ...DENIED, 404: 'NOT_FOUND' },
      handler: async (input) => ok(await deps.get.one(requireTenant(input), input.params['id'] ?? '')),
    },
  ];
}
