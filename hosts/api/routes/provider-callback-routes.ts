import { AppError, isAppError } from '../../../core/errors.ts';
import type { ApplyDeliveryReport } from '../../../core/use-cases/messaging/apply-delivery-report.ts';
import type { VendorAdapter } from '../../../core/ports/vendor-adapter.ts';
import { ok, type RouteDefinition } from '../route.ts';

export interface ProviderCallbackDeps {
  /** Loaded adapters of a vendor key. */
  adaptersOf: (vendor: string) => VendorAdapter[];
  applyDeliveryReport: ApplyDeliveryReport;
  /** The public base URL vendors call (Twilio signs the full URL). */
  publicUrl: string;
}

/**
 * POST /providers/callbacks/{vendor}: delivery reports pushed by vendors. No user credentials; the
 * vendor's signature is verified where it signs (401 INVALID_SIGNATURE). With several providers of one
 * vendor (different accounts), the first whose credentials verify the callback takes it.
 */
export function providerCallbackRoutes(deps: ProviderCallbackDeps): RouteDefinition[] {
  // Most vendors POST their reports; Arkesel calls the callback URL with GET and query parameters.
  return (['POST', 'GET'] as const).map((method): RouteDefinition => ({
    method, path: '/providers/callbacks/:vendor', tag: 'Providers', summary: 'Delivery report callback from a vendor',
    auth: 'none', rawBody: true,
    responses: { 200: 'Reports applied', 401: 'INVALID_SIGNATURE', 404: 'NOT_FOUND (no provider of this vendor takes callbacks)' },
    handler: async ({ params, body, headers, koa }) => {
      const adapters = deps.adaptersOf(params['vendor'] ?? '').filter((a) => typeof a.parseCallback === 'function');
      if (adapters.length === 0) throw new AppError('NOT_FOUND', 'No provider of this vendor accepts callbacks');
      const callback = {
        url: `${deps.publicUrl}${koa.originalUrl}`, rawBody: body as Buffer, contentType: koa.get('content-type'),
        headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v])),
      };
      let lastError: unknown = new AppError('INVALID_SIGNATURE', 'Callback signature is invalid');
      for (const adapter of adapters) {
        let reports;
        try {
          reports = adapter.parseCallback!(callback);
        } catch (error) {
          if (isAppError(error) && error.code === 'INVALID_SIGNATURE') { lastError = error; continue; }
          throw isAppError(error) ? error : new AppError('VALIDATION_ERROR', 'Unreadable callback body');
        }
        let applied = 0;
        for (const report of reports) if (await deps.applyDeliveryReport.execute(adapter.name, report, `callback:${adapter.vendor}`)) applied += 1;
        return ok({ received: reports.length, applied });
      }
      throw lastError;
    },
  }));
}
