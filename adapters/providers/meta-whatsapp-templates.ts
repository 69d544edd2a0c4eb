import { AppError } from '../../core/errors.ts';
import type { MetaTemplateListing } from '../../core/domain/whatsapp-template.ts';
import { asRecord, asString, callVendor, isSuccess, vendorText } from './ghana-sms-http.ts';

/** Templates asked per page, and most pages read (a business account holds at most a few thousand translations). */
export const META_TEMPLATE_PAGE = 100;
const MAX_PAGES = 50;

export interface MetaTemplateSource {
  /** `https://graph.facebook.com/v21.0` (base and version, no trailing slash). */
  graphUrl: string;
  businessAccountId: string;
  headers: Record<string, string>;
  timeoutMs: number;
  /** Texts never repeated in errors (the access token, the app secret). */
  secrets: string[];
}

/**
 * Every template of a WhatsApp Business Account: `GET /{waba-id}/message_templates?fields=name,language,
 * status,components,parameter_format&limit=100`, then the next page by `paging.cursors.after` while Meta
 * gives a `paging.next` (the cursor only: the next page's URL is built here, never taken from the answer).
 * Each page has the timeout. Throws PROVIDER_UNAVAILABLE (retryable for timeouts, 5xx and 429; Meta's
 * message, without credentials, for a refusal such as an invalid token or an unknown account id).
 */
export async function listMetaTemplates(source: MetaTemplateSource): Promise<MetaTemplateListing[]> {
  const templates: MetaTemplateListing[] = [];
  let after: string | null = null;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const url = new URL(`${source.graphUrl}/${encodeURIComponent(source.businessAccountId)}/message_templates`);
    url.searchParams.set('fields', 'name,language,status,components,parameter_format');
    url.searchParams.set('limit', String(META_TEMPLATE_PAGE));
    if (after) url.searchParams.set('after', after);
    const call = await callVendor('WhatsApp', url, { method: 'GET', headers: source.headers }, source.timeoutMs);
    if (!call.ok) throw new AppError('PROVIDER_UNAVAILABLE', `Meta templates could not be read: ${call.failure.errorMessage}`, {}, { retryable: call.failure.retryable });
    const { answer } = call;
    const body = asRecord(answer.json);
    if (!isSuccess(answer)) {
      const error = asRecord(body['error']);
      const detail = vendorText(error['message'], source.secrets) || 'no message';
      const retryable = answer.status === 429 || answer.status >= 500;
      throw new AppError('PROVIDER_UNAVAILABLE', `Meta refused to list the templates (HTTP ${answer.status}, code ${String(error['code'] ?? 'none')}): ${detail}`, {}, { retryable });
    }
    for (const item of Array.isArray(body['data']) ? body['data'] : []) {
      const t = asRecord(item);
      const name = asString(t['name']);
      const language = asString(t['language']);
      if (!name || !language) continue;
      templates.push({ name, language, status: asString(t['status']) ?? 'UNKNOWN', parameterFormat: asString(t['parameter_format']),
        components: Array.isArray(t['components']) ? t['components'].map(asRecord) : [] });
    }
    const paging = asRecord(body['paging']);
    after = asString(asRecord(paging['cursors'])['after']);
    if (!asString(paging['next']) || !after) return templates;
  }
  return templates;
}
