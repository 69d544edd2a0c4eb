import type { Container } from 'inversify';
import { PaystackPaymentGateway } from '../../../adapters/payments/paystack-gateway.ts';
import { SandboxPaymentGateway } from '../../../adapters/payments/sandbox-gateway.ts';
import type { PaymentGateway } from '../../../core/ports/payment-gateway.ts';
import { GetInvoice } from '../../../core/use-cases/billing/get-invoice.ts';
import { GetPricing } from '../../../core/use-cases/billing/get-pricing.ts';
import { GetTopUpOptions } from '../../../core/use-cases/billing/get-top-up-options.ts';
import { GetUsage } from '../../../core/use-cases/billing/get-usage.ts';
import { GetWallet } from '../../../core/use-cases/billing/get-wallet.ts';
import { HandleGatewayWebhook } from '../../../core/use-cases/billing/handle-gateway-webhook.ts';
import { ListInvoices } from '../../../core/use-cases/billing/list-invoices.ts';
import { TopUpWallet } from '../../../core/use-cases/billing/top-up-wallet.ts';
import { VerifyPayment } from '../../../core/use-cases/billing/verify-payment.ts';
import type { Config } from '../../config.ts';
import { MESSAGING } from '../../messaging-bindings.ts';
import { INFRA, token } from '../../tokens.ts';
import { billingRoutes } from '../routes/billing-routes.ts';
import { sandboxCheckoutRoutes } from '../routes/sandbox-checkout-routes.ts';
import { API } from '../tokens.ts';

export const BILLING = {
  /** The configured gateway, or null (PAYMENT_GATEWAY=none). */
  gateway: token<PaymentGateway | null>('billing.PaymentGateway'),
} as const;

/** The gateway PAYMENT_GATEWAY names (docs/billing.md). */
export function paymentGatewayFor(config: Config): PaymentGateway | null {
  if (config.paymentGateway === 'paystack') {
    return new PaystackPaymentGateway({ secretKey: config.paystackSecretKey ?? '', baseUrl: config.paystackBaseUrl, timeoutMs: config.paymentGatewayTimeoutMs });
  }
  return config.paymentGateway === 'sandbox' ? new SandboxPaymentGateway({ checkoutBaseUrl: config.publicUrl }) : null;
}

/** Wallet, top-ups through the payment gateway, its webhook, usage, statements and pricing. */
export function bindBillingModule(container: Container): void {
  container.bind(BILLING.gateway).toResolvedValue((config) => paymentGatewayFor(config), [INFRA.config]).inSingletonScope();
  container.bind(API.routes).toResolvedValue(
    (config, storage, ids, clock, pricing, gateway) => {
      const handleGatewayWebhook = new HandleGatewayWebhook({ storage, clock, gateway });
      const routes = billingRoutes({
        getWallet: new GetWallet({ storage, lowBalanceThreshold: config.lowBalanceThreshold }),
        getTopUpOptions: new GetTopUpOptions({ limits: config.topUpLimits, gateway }),
        topUpWallet: new TopUpWallet({ storage, ids, clock, gateway, limits: config.topUpLimits, callbackUrl: config.paymentCallbackUrl }),
        verifyPayment: new VerifyPayment({ storage, clock, gateway }),
        handleGatewayWebhook,
        getUsage: new GetUsage({ storage, clock }),
        listInvoices: new ListInvoices({ storage }),
        getInvoice: new GetInvoice({ storage }),
        getPricing: new GetPricing({ pricing, ownAccountFee: config.ownAccountFee }),
      });
      return gateway instanceof SandboxPaymentGateway ? [...routes, ...sandboxCheckoutRoutes({ sandbox: gateway, handleGatewayWebhook, clock })] : routes;
    },
    [INFRA.config, INFRA.storage, INFRA.ids, INFRA.clock, MESSAGING.pricing, BILLING.gateway]).inSingletonScope();
}
