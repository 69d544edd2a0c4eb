import type { GetInvoice } from '../../../core/use-cases/billing/get-invoice.ts';
import type { GetPricing } from '../../../core/use-cases/billing/get-pricing.ts';
import type { GetTopUpOptions } from '../../../core/use-cases/billing/get-top-up-options.ts';
import { GetUsageInput, type GetUsage } from '../../../core/use-cases/billing/get-usage.ts';
import type { GetWallet } from '../../../core/use-cases/billing/get-wallet.ts';
import type { HandleGatewayWebhook } from '../../../core/use-cases/billing/handle-gateway-webhook.ts';
import { MAX_INVOICES_LISTED, type ListInvoices } from '../../../core/use-cases/billing/list-invoices.ts';
import { TopUpInput, type TopUpWallet } from '../../../core/use-cases/billing/top-up-wallet.ts';
import { VerifyPaymentInput, type VerifyPayment } from '../../../core/use-cases/billing/verify-payment.ts';
import * as v from 'valibot';
import { AppError } from '../../../core/errors.ts';
import { ok, requireTenant, requireUser, type RouteDefinition } from '../route.ts';

export interface BillingRouteDeps {
  getWallet: GetWallet;
  getTopUpOptions: GetTopUpOptions;
  topUpWallet: TopUpWallet;
  verifyPayment: VerifyPayment;
  handleGatewayWebhook: HandleGatewayWebhook;
  getUsage: GetUsage;
  listInvoices: ListInvoices;
  getInvoice: GetInvoice;
  getPricing: GetPricing;
}

/** For the OpenAPI document: the download format of GET /billing/invoices/{id}. */
const InvoiceFormat = v.object({ format: v.optional(v.pipe(v.picklist(['json', 'csv']), v.description('Download as a JSON or CSV file'))) });

const DENIED = { 401: 'UNAUTHORIZED (API keys are not accepted here)', 403: 'FORBIDDEN (not a member, or the role lacks the permission)' };
const TENANT_400 = 'ORGANIZATION_REQUIRED';

/**
 * Our header carries the signature; Paystack's own `x-paystack-signature` is accepted as an alias, so
 * the Paystack dashboard's webhook URL can point straight at this endpoint (docs/billing.md).
 */
function signatureHeader(headers: Record<string, string | string[] | undefined>): string | undefined {
  const value = headers['x-gateway-signature'] ?? headers['x-paystack-signature'];
  return Array.isArray(value) ? value[0] : value;
}

export function billingRoutes(deps: BillingRouteDeps): RouteDefinition[] {
  return [
    {
      method: 'GET', path: '/billing/wallet', tag: 'Billing', summary: 'The wallet balance (GHS)',
      auth: 'tenant', permission: 'billing:read',
      responses: { 200: '`{ balance, currency, updatedAt, lowBalanceThreshold }` in GHS', 400: TENANT_400, ...DENIED, 404: 'NOT_FOUND' },
      handler: async (input) => ok(await deps.getWallet.execute(requireTenant(input))),
    },
    {
      method: 'GET', path: '/billing/top-up-options', tag: 'Billing', summary: 'Top-up limits, presets and the payment gateway',
      auth: 'tenant', permission: 'billing:read',
      responses: { 200: '`{ currency, minAmount, maxAmount, presets, gateway, available }`', 400: TENANT_400, ...DENIED },
      handler: async (input) => { requireTenant(input); return ok(deps.getTopUpOptions.execute()); },
    },
    {
      method: 'POST', path: '/billing/top-up', tag: 'Billing', summary: 'Top up the wallet: a gateway checkout URL, or an instant invoice credit (platform administrators)',
      auth: 'tenant', permission: 'billing:write', body: TopUpInput,
      responses: {
        200: '`{ status: "pending", reference, checkoutUrl, ... }` for gateway methods; `{ status: "credited", reference, balance, ... }` for invoice',
        400: 'INVALID_AMOUNT (outside the top-up limits, or more than two decimals), VALIDATION_ERROR or ORGANIZATION_REQUIRED', ...DENIED,
        403: 'FORBIDDEN (role lacks billing:write, or paymentMethod invoice by someone other than a platform administrator)',
        409: 'CONFLICT (invoice reference already used)', 503: 'PROVIDER_UNAVAILABLE (gateway down) or SERVICE_UNAVAILABLE (no gateway configured)',
      },
      handler: async (input) => {
        const tenant = requireTenant(input);
        const user = requireUser(input);
        return ok(await deps.topUpWallet.execute({
          organizationId: tenant.organizationId, userId: user.userId, platformRole: user.platformRole, impersonatorId: user.impersonatorId,
        }, input.body));
      },
    },
    {
      method: 'POST', path: '/billing/verify-payment', tag: 'Billing', summary: 'Check a payment with the gateway and credit the wallet (once)',
      auth: 'tenant', permission: 'billing:write', body: VerifyPaymentInput,
      responses: {
        200: '`{ status: "credited" | "already_processed", reference, amount, balance }`',
        400: 'VALIDATION_ERROR (reference missing), PAYMENT_FAILED (failed, or confirmed for another amount/currency; nothing credited) or ORGANIZATION_REQUIRED',
        ...DENIED, 404: 'NOT_FOUND (unknown reference, or another organization\'s)', 409: 'PAYMENT_PENDING (not paid yet)', 503: 'PROVIDER_UNAVAILABLE',
      },
      handler: async (input) => ok(await deps.verifyPayment.execute(requireTenant(input), input.body)),
    },
    {
      method: 'POST', path: '/billing/webhooks/gateway', tag: 'Billing', summary: 'Payment gateway events (charge.success credits the wallet)',
      auth: 'none', rawBody: true,
      responses: {
        200: 'Acknowledged: `{ received, event, outcome }` (outcome credited, already_processed, mismatch, failed, pending or ignored)',
        400: 'VALIDATION_ERROR (signed body that is not a gateway event)',
        401: 'INVALID_SIGNATURE (x-gateway-signature missing or not the HMAC of the raw body)', 413: 'PAYLOAD_TOO_LARGE',
      },
      handler: async (input) => ok(await deps.handleGatewayWebhook.execute(input.body as Buffer, signatureHeader(input.headers))),
    },
    {
      method: 'GET', path: '/billing/usage', tag: 'Billing', summary: 'Messages, segments and cost per channel',
      auth: 'tenant', permission: 'billing:read', query: GetUsageInput,
      responses: { 200: '`{ months, from, to, currency, channels: [{ channel, messages, segments, cost }], totals }`', 400: `VALIDATION_ERROR or ${TENANT_400}`, ...DENIED },
      handler: async (input) => ok(await deps.getUsage.execute(requireTenant(input), input.query)),
    },
    {
      method: 'GET', path: '/billing/invoices', tag: 'Billing', summary: 'Monthly statements, newest first',
      auth: 'tenant', permission: 'billing:read',
      responses: { 200: `Statements (at most ${MAX_INVOICES_LISTED}): opening balance, top-ups, debits, refunds, usage per channel, closing balance`, 400: TENANT_400, ...DENIED },
      handler: async (input) => ok(await deps.listInvoices.execute(requireTenant(input))),
    },
    {
      method: 'GET', path: '/billing/invoices/:id', tag: 'Billing', summary: 'One monthly statement; `?format=json` or `?format=csv` downloads it as a file',
      auth: 'tenant', permission: 'billing:read', custom: true, query: InvoiceFormat,
      responses: {
        200: 'The statement in the envelope; with format=json an application/json attachment, with format=csv a text/csv attachment',
        400: `VALIDATION_ERROR (unknown format) or ${TENANT_400}`, ...DENIED, 404: 'NOT_FOUND (unknown id, or another organization\'s)',
      },
      handler: async (input) => {
        const tenant = requireTenant(input);
        const id = input.params['id'] ?? '';
        const format = input.query['format'];
        const ctx = input.koa;
        if (format === 'csv') {
          const { fileName, csv } = await deps.getInvoice.csv(tenant, id);
          ctx.set('content-disposition', `attachment; filename="${fileName}"`);
          ctx.type = 'text/csv; charset=utf-8';
          ctx.body = csv;
          return;
        }
        if (format !== undefined && format !== '' && format !== 'json') {
          throw new AppError('VALIDATION_ERROR', 'format must be json or csv', { fieldErrors: { format: ['must be json or csv'] }, formErrors: [] });
        }
        const invoice = await deps.getInvoice.execute(tenant, id);
        if (format === 'json') {
          ctx.set('content-disposition', `attachment; filename="statement-${invoice.period}.json"`);
          ctx.type = 'application/json';
          ctx.body = JSON.stringify(invoice, null, 2);
          return;
        }
        ctx.body = { success: true, data: invoice };
      },
    },
    {
      method: 'GET', path: '/billing/pricing', tag: 'Billing', summary: 'Active pricing rules and plans',
      auth: 'tenant', permission: 'billing:read',
      responses: { 200: '`{ currency, rules: [{ channel, country, unit, price }], plans }`', 400: TENANT_400, ...DENIED },
      handler: async (input) => { requireTenant(input); return ok(await deps.getPricing.execute()); },
    },
  ];
}
