import * as v from 'valibot';
import { AppError, fieldError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import { ghsToPesewas, pesewasToGhs, type Pesewas } from '../../domain/money.ts';
import { MAX_INVOICE_CREDIT, PAYMENT_METHODS, type Payment, type TopUpLimits } from '../../domain/payment.ts';
import type { PlatformRole } from '../../domain/roles.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { PaymentGateway } from '../../ports/payment-gateway.ts';
import type { Storage } from '../../ports/storage.ts';

/** Paystack's reference alphabet (alphanumerics and - . =), bounded. */
const REFERENCE = /^[A-Za-z0-9.=-]{1,100}$/;

/** Spec "Top-up request". Range and decimals are checked after parsing (INVALID_AMOUNT, not VALIDATION_ERROR). */
export const TopUpInput = v.object({
  amount: v.pipe(v.number('must be a number (GHS)'), v.finite('must be a finite number'), v.description('GHS, at most two decimals')),
  paymentMethod: v.optional(v.picklist(PAYMENT_METHODS, `must be one of ${PAYMENT_METHODS.join(', ')}`), 'gateway'),
  reference: v.optional(v.pipe(v.string('must be a string'), v.trim(), v.regex(REFERENCE, 'must be 1-100 letters, digits, ".", "=" or "-"'),
    v.description('Manual invoice credits only (platform administrators)'))),
});

export interface TopUpScope {
  organizationId: string;
  userId: string;
  platformRole: PlatformRole | null;
  impersonatorId: string | null;
}

export interface TopUpDeps {
  storage: Storage;
  ids: IdGenerator;
  clock: Clock;
  /** Null when no gateway is configured (top-ups through a gateway answer SERVICE_UNAVAILABLE). */
  gateway: PaymentGateway | null;
  limits: TopUpLimits;
  /** Where the gateway returns the customer; `?reference=` is appended by the gateway. */
  callbackUrl: string;
}

/**
 * POST /billing/top-up. Gateway methods (gateway, mobile_money, card ...): the amount must lie within
 * the limits (INVALID_AMOUNT), a PENDING payment is recorded under a fresh unique reference, and the
 * gateway's checkout URL is returned; the wallet is credited later by the webhook or a verify call.
 * `invoice`: platform administrators only (their own session or one impersonating the tenant; FORBIDDEN otherwise), credits at once under the given or a
 * fresh reference (CONFLICT when already used) and writes an audit entry, all in one transaction.
 */
export class TopUpWallet {
  readonly #deps: TopUpDeps;
  constructor(deps: TopUpDeps) { this.#deps = deps; }

  async execute(scope: TopUpScope, raw: unknown) {
    const input = parseInput(TopUpInput, raw);
    const amount = ghsToPesewas(input.amount);
    if (amount === null) throw invalidAmount('amount must be in GHS with at most two decimals', input.amount);
    if (input.paymentMethod === 'invoice') return this.#creditInvoice(scope, amount, input.reference);
    if (input.reference !== undefined) throw fieldError('reference', 'is only accepted with paymentMethod invoice');
    const { limits, gateway, storage, ids, clock } = this.#deps;
    if (amount < limits.min || amount > limits.max) {
      throw invalidAmount(`amount must be between ${pesewasToGhs(limits.min)} and ${pesewasToGhs(limits.max)} GHS`, input.amount);
    }
    if (!gateway) throw new AppError('SERVICE_UNAVAILABLE', 'No payment gateway is configured');

    const [organization, user] = await Promise.all([storage.organizations.findById(scope.organizationId), storage.users.findById(scope.userId)]);
    if (!organization) throw new AppError('NOT_FOUND', 'Organization not found');
    const email = organization.businessEmail ?? user?.email;
    if (!email) throw fieldError('businessEmail', 'set the organization business email before topping up');
    const now = clock.now();
    const payment = newPayment(scope, `nkra-${ids.next().replace(/-/g, '')}`, amount, input.paymentMethod, gateway.name, now);
    await storage.payments.insert(payment);
    try {
      const { checkoutUrl } = await gateway.initialize({
        reference: payment.reference, amount, currency: 'GHS', email, callbackUrl: this.#deps.callbackUrl,
        metadata: { organizationId: scope.organizationId, method: input.paymentMethod },
      });
      await storage.payments.setCheckoutUrl(payment.reference, checkoutUrl, clock.now());
      return { status: 'pending' as const, reference: payment.reference, checkoutUrl, amount: pesewasToGhs(amount), currency: 'GHS', paymentMethod: input.paymentMethod, gateway: gateway.name };
    } catch (error) {
      await storage.payments.settle(payment.reference, {
        status: 'FAILED', gatewayStatus: 'initialize_failed', confirmedAmount: null, confirmedCurrency: null, creditedAt: null, updatedAt: clock.now(),
      });
      throw error;
    }
  }

  /** A platform administrator's session, or an impersonation session opened by one. */
  async #isPlatformAdmin(scope: TopUpScope): Promise<boolean> {
    if (scope.platformRole === 'PLATFORM_SUPER_ADMIN') return true;
    if (!scope.impersonatorId) return false;
    return (await this.#deps.storage.users.findById(scope.impersonatorId))?.platformRole === 'PLATFORM_SUPER_ADMIN';
  }

  async #creditInvoice(scope: TopUpScope, amount: Pesewas, given: string | undefined) {
    if (!(await this.#isPlatformAdmin(scope))) throw new AppError('FORBIDDEN', 'Only platform administrators may credit a wallet by invoice');
    if (amount <= 0 || amount > MAX_INVOICE_CREDIT) throw invalidAmount(`invoice credits must be between 0.01 and ${pesewasToGhs(MAX_INVOICE_CREDIT)} GHS`, pesewasToGhs(amount));
    const { storage, ids, clock } = this.#deps;
    const now = clock.now();
    const reference = given ?? `inv-${ids.next().replace(/-/g, '')}`;
    const payment: Payment = { ...newPayment(scope, reference, amount, 'invoice', 'invoice', now), status: 'SUCCEEDED', gatewayStatus: 'manual',
      confirmedAmount: amount, confirmedCurrency: 'GHS', creditedAt: now };
    const balance = await storage.transaction(async (tx) => {
      if (await tx.payments.findByReference(reference)) throw new AppError('CONFLICT', 'This reference was already used for a payment', { reference });
      await tx.payments.insert(payment);
      const { wallet } = await tx.wallets.update(scope.organizationId, () => ({
        amount, kind: 'TOP_UP', reference, description: `Manual credit by invoice ${reference}`,
      }), now);
      await tx.auditLog.record({
        id: ids.next(), actorUserId: scope.userId, impersonatorUserId: scope.impersonatorId, organizationId: scope.organizationId,
        action: 'wallet.manual_credit', target: `organization:${scope.organizationId}`, details: { reference, amount: pesewasToGhs(amount), currency: 'GHS' }, createdAt: now,
      });
      return wallet.balance;
    });
    return { status: 'credited' as const, reference, amount: pesewasToGhs(amount), currency: 'GHS', paymentMethod: 'invoice' as const, balance: pesewasToGhs(balance) };
  }
}

function newPayment(scope: TopUpScope, reference: string, amount: Pesewas, method: Payment['method'], gateway: string, now: Date): Payment {
  return {
    reference, organizationId: scope.organizationId, amount, currency: 'GHS', method, gateway, status: 'PENDING', checkoutUrl: null,
    gatewayStatus: null, confirmedAmount: null, confirmedCurrency: null, createdByUserId: scope.userId, createdAt: now, updatedAt: now, creditedAt: null,
  };
}

function invalidAmount(message: string, amount: number): AppError {
  return new AppError('INVALID_AMOUNT', message, { amount });
}
