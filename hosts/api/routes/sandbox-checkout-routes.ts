import type { SandboxPaymentGateway } from '../../../adapters/payments/sandbox-gateway.ts';
import { AppError } from '../../../core/errors.ts';
import type { HandleGatewayWebhook } from '../../../core/use-cases/billing/handle-gateway-webhook.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { RouteDefinition } from '../route.ts';

export interface SandboxCheckoutDeps {
  sandbox: SandboxPaymentGateway;
  handleGatewayWebhook: HandleGatewayWebhook;
  clock: Clock;
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#222}
.box{border:1px solid #ddd;border-radius:8px;padding:1.5rem}.note{color:#a15c00;font-size:.9rem}button{font-size:1rem;padding:.6rem 1.2rem;margin-right:.5rem;border-radius:6px;border:1px solid #888;cursor:pointer}
.pay{background:#0a7d32;color:#fff;border-color:#0a7d32}</style></head><body><div class="box">${body}</div></body></html>`;
}

/**
 * The sandbox gateway's checkout (registered only when PAYMENT_GATEWAY=sandbox): a page where a
 * person pays or fails a top-up. Choosing sends the sandbox's signed webhook through the same
 * HandleGatewayWebhook as real gateway events; verify-payment then sees the same outcome.
 */
export function sandboxCheckoutRoutes(deps: SandboxCheckoutDeps): RouteDefinition[] {
  return [
    {
      method: 'GET', path: '/billing/sandbox-checkout/:reference', tag: 'Billing', summary: 'Sandbox gateway checkout page (no money moves)',
      auth: 'none', custom: true,
      responses: { 200: 'text/html: the amount and Pay / Fail buttons', 404: 'NOT_FOUND (unknown checkout)' },
      handler: async ({ params, koa }) => {
        const t = deps.sandbox.transaction(params['reference'] ?? '');
        if (!t) throw new AppError('NOT_FOUND', 'Unknown sandbox checkout');
        const amount = `GHS ${(t.amount / 100).toFixed(2)}`;
        const action = `/billing/sandbox-checkout/${encodeURIComponent(t.reference)}`;
        koa.type = 'text/html; charset=utf-8';
        koa.body = page(`Sandbox checkout ${amount}`, t.status !== 'pending'
          ? `<h1>${amount}</h1><p>This checkout is already ${escape(t.status)}.</p>`
          : `<h1>Pay ${amount}</h1><p>Reference <code>${escape(t.reference)}</code><br>Customer ${escape(t.email)}</p>
<p class="note">Sandbox gateway: no money moves. Choose the outcome to simulate.</p>
<form method="post" action="${action}"><button class="pay" name="outcome" value="success">Pay ${amount}</button><button name="outcome" value="failed">Fail the payment</button></form>`);
      },
    },
    {
      method: 'POST', path: '/billing/sandbox-checkout/:reference', tag: 'Billing', summary: 'Sandbox checkout: pay or fail (form field outcome=success|failed)',
      auth: 'none', rawBody: true, custom: true,
      responses: { 200: 'text/html: the result, with a link back to the callback URL', 400: 'VALIDATION_ERROR (outcome)', 404: 'NOT_FOUND (unknown checkout)' },
      handler: async ({ params, body, koa }) => {
        const reference = params['reference'] ?? '';
        const outcome = new URLSearchParams((body as Buffer).toString('utf8')).get('outcome');
        if (outcome !== 'success' && outcome !== 'failed') {
          throw new AppError('VALIDATION_ERROR', 'outcome must be success or failed', { fieldErrors: { outcome: ['must be success or failed'] }, formErrors: [] });
        }
        const t = deps.sandbox.transaction(reference);
        if (!t) throw new AppError('NOT_FOUND', 'Unknown sandbox checkout');
        const event = deps.sandbox.complete(reference, outcome, deps.clock.now());
        if (event) await deps.handleGatewayWebhook.execute(event.rawBody, event.signature);
        const back = new URL(t.callbackUrl);
        back.searchParams.set('trxref', reference);
        back.searchParams.set('reference', reference);
        koa.type = 'text/html; charset=utf-8';
        koa.body = page('Sandbox checkout', `<h1>${outcome === 'success' ? 'Payment successful' : 'Payment failed'}</h1>
<p>Reference <code>${escape(reference)}</code></p><p><a href="${escape(back.toString())}">Return to the merchant</a></p>`);
      },
    },
  ];
}
