import { AppError, isAppError } from '../../../core/errors.ts';
import type { GetConsentStats } from '../../../core/use-cases/consent/get-consent-stats.ts';
import type { GetContactPreferences } from '../../../core/use-cases/consent/get-contact-preferences.ts';
import type { GetOptOutPage } from '../../../core/use-cases/consent/get-opt-out-page.ts';
import type { OptOutChoice, SubmitOptOutPage } from '../../../core/use-cases/consent/submit-opt-out-page.ts';
import type { UpdateContactPreferences } from '../../../core/use-cases/consent/update-contact-preferences.ts';
import { ok, requireTenant, type RouteDefinition } from '../route.ts';
import { notFoundHtml, optOutPageHtml, UNSUBSCRIBED_NOTICE } from './opt-out-page-html.ts';

export interface ConsentRouteDeps {
  getOptOutPage: GetOptOutPage;
  submitOptOutPage: SubmitOptOutPage;
  getContactPreferences: GetContactPreferences;
  updateContactPreferences: UpdateContactPreferences;
  getConsentStats: GetConsentStats;
}

const DENIED = { 400: 'ORGANIZATION_REQUIRED', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN (the role lacks the permission)' };
/** Longest form accepted by the hosted page (a few checkboxes). */
const FORM_MAX_BYTES = 4_096;

/** Opt-out links, the hosted preference page and the preference centre API (docs/consent.md). */
export function consentRoutes(deps: ConsentRouteDeps): RouteDefinition[] {
  return [
    {
      method: 'GET', path: '/u/:token', tag: 'Consent', summary: 'Hosted opt-out and preference page behind a message\'s opt-out link (no login, no JavaScript)',
      auth: 'none', custom: true,
      responses: { 200: 'text/html: unsubscribe button and the category choices for the link\'s channel', 404: 'text/html: the link is not valid' },
      handler: async ({ params, koa }) => {
        koa.type = 'text/html; charset=utf-8';
        koa.set('Cache-Control', 'no-store');
        try {
          const token = params['token'] ?? '';
          koa.body = optOutPageHtml(await deps.getOptOutPage.execute(token), `/u/${encodeURIComponent(token)}`, null);
        } catch (error) {
          if (!isAppError(error) || error.code !== 'NOT_FOUND') throw error;
          koa.status = 404;
          koa.body = notFoundHtml();
        }
      },
    },
    {
      method: 'POST', path: '/u/:token', tag: 'Consent',
      summary: 'Record the choice: RFC 8058 one-click (List-Unsubscribe=One-Click), the Unsubscribe button (action=unsubscribe) or the form (action=preferences, optedIn=CATEGORY ...)',
      auth: 'none', rawBody: true, custom: true,
      responses: { 200: 'text/html: the page again with what was recorded (one-click: a short confirmation)', 400: 'VALIDATION_ERROR (form)', 404: 'text/html: the link is not valid' },
      handler: async ({ params, body, koa }) => {
        const token = params['token'] ?? '';
        koa.type = 'text/html; charset=utf-8';
        koa.set('Cache-Control', 'no-store');
        const choice = choiceOf(body as Buffer);
        try {
          const { changed } = await deps.submitOptOutPage.execute(token, choice);
          const notice = choice.kind === 'preferences' ? (changed > 0 ? 'Your choices are saved.' : 'Nothing changed.') : UNSUBSCRIBED_NOTICE;
          koa.body = optOutPageHtml(await deps.getOptOutPage.execute(token), `/u/${encodeURIComponent(token)}`, notice);
        } catch (error) {
          if (!isAppError(error) || error.code !== 'NOT_FOUND') throw error;
          koa.status = 404;
          koa.body = notFoundHtml();
        }
      },
    },
    {
      method: 'GET', path: '/contacts/:id/preferences', tag: 'Consent', summary: 'The contact\'s preferences per category and channel',
      auth: 'tenant-or-api-key', permission: 'contacts:read', apiKeyScope: 'contacts:read',
      responses: { 200: '{ contactId, channels, categories, exemptCategories, suppressed, preferences: [{ category, channel, optedIn }] }', ...DENIED, 404: 'NOT_FOUND' },
      handler: async (input) => ok(await deps.getContactPreferences.execute(requireTenant(input), input.params['id'] ?? '')),
    },
    {
      method: 'PUT', path: '/contacts/:id/preferences', tag: 'Consent', summary: 'Opt the contact in or out of categories per channel',
      auth: 'tenant-or-api-key', permission: 'contacts:write', apiKeyScope: 'contacts:write',
      responses: { 200: 'The preferences after the change', ...DENIED, 400: 'VALIDATION_ERROR (category not opt-out-able, channel without address, at most 100)', 404: 'NOT_FOUND' },
      handler: async (input) => ok(await deps.updateContactPreferences.execute(requireTenant(input), input.params['id'] ?? '', input.body)),
    },
    {
      method: 'GET', path: '/consent/stats', tag: 'Consent', summary: 'Opt-outs by category and channel, per day over 30 days, and suppression entries',
      auth: 'tenant', permission: 'contacts:read',
      responses: { 200: '{ since, optedOut, byCategory: [{ category, channel, count }], daily: [{ day, count }], suppressed }', ...DENIED },
      handler: async (input) => ok(await deps.getConsentStats.execute(requireTenant(input))),
    },
  ];
}

/** The submitted form: RFC 8058 one-click, the Unsubscribe button, or the preference form. */
function choiceOf(raw: Buffer): OptOutChoice {
  if (raw.length > FORM_MAX_BYTES) throw new AppError('VALIDATION_ERROR', 'The form is too large', { fieldErrors: {}, formErrors: ['The form is too large'] });
  const form = new URLSearchParams(raw.toString('utf8'));
  if (form.get('List-Unsubscribe') === 'One-Click') return { kind: 'unsubscribe', source: 'one-click' };
  if (form.get('action') === 'preferences') return { kind: 'preferences', optedIn: form.getAll('optedIn') };
  if (form.get('action') === 'unsubscribe') return { kind: 'unsubscribe', source: 'link' };
  throw new AppError('VALIDATION_ERROR', 'action must be unsubscribe or preferences', { fieldErrors: { action: ['must be unsubscribe or preferences'] }, formErrors: [] });
}
