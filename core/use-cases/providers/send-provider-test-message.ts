import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { normalizeRecipient } from '../../domain/recipient.ts';
import type { ProviderResult } from '../../ports/channel-provider.ts';
import type { ProviderConfig } from '../../domain/provider.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { ProviderRepository } from '../../ports/provider-repository.ts';
import type { Storage } from '../../ports/storage.ts';
import { parseInput } from '../../validation.ts';
import type { AdminActor } from '../admin/admin-actor.ts';
import { countryCodeSchema } from '../messaging/message-preparation.ts';

export const ProviderTestInput = v.object({
  to: v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'is required'), v.maxLength(4096, 'is too long')),
  body: v.optional(v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(1_000, 'must be at most 1000 characters')), 'Nkra provider test message'),
  subject: v.optional(v.pipe(v.string('must be a string'), v.maxLength(200, 'must be at most 200 characters')), 'Nkra provider test'),
  countryCode: v.optional(countryCodeSchema, 'GH'),
});

/** Sends one message through exactly this provider (its circuit breaker and rate limit included); null when it is not loaded. */
export type SendThroughProvider = (providerId: string, message: { messageId: string; to: string; subject: string | null; body: string }) => Promise<ProviderResult | null>;

/**
 * POST /admin/providers/{id}/test-message (platform administrators): sends one message through this
 * provider only, to check its credentials and sender ID end to end. Not a tenant's message: nothing is
 * recorded in delivery logs or charged; the attempt is audited (provider.test, with the outcome and
 * the recipient, never credentials). NOT_FOUND for an unknown provider; VALIDATION_ERROR for a `to`
 * the channel cannot take; PROVIDER_UNAVAILABLE when the provider is inactive or not loaded.
 */
export class SendProviderTestMessage {
  readonly #deps: { providers: ProviderRepository; storage: Pick<Storage, 'auditLog'>; ids: IdGenerator; clock: Clock; send: SendThroughProvider };
  constructor(deps: { providers: ProviderRepository; storage: Pick<Storage, 'auditLog'>; ids: IdGenerator; clock: Clock; send: SendThroughProvider }) { this.#deps = deps; }

  async execute(admin: AdminActor, providerId: string, raw: unknown) {
    const provider = await this.#deps.providers.findById(providerId);
    if (!provider) throw new AppError('NOT_FOUND', 'Provider not found');
    return sendTestThrough(this.#deps, provider, raw, { userId: admin.userId, organizationId: null, action: 'provider.test', target: `provider:${providerId}` });
  }
}

/**
 * One test message through exactly this provider, audited (`who`: the actor and the audit entry):
 * shared by the administrators' test of a platform provider and an organization's test of its own
 * vendor account. Nothing is recorded in delivery logs or charged.
 */
export async function sendTestThrough(deps: { storage: Pick<Storage, 'auditLog'>; ids: IdGenerator; clock: Clock; send: SendThroughProvider },
  provider: ProviderConfig, raw: unknown, who: { userId: string; organizationId: string | null; action: string; target: string }) {
  const input = parseInput(ProviderTestInput, raw);
  const recipient = normalizeRecipient(provider.channel, input.to, input.countryCode);
  if (!recipient.ok) throw new AppError('VALIDATION_ERROR', `to ${recipient.reason}`, { fieldErrors: { to: [`to ${recipient.reason}`] }, formErrors: [] });
  const started = deps.clock.now().getTime();
  const messageId = `provider-test-${deps.ids.next()}`;
  const result = await deps.send(provider.id, { messageId, to: recipient.recipient, subject: provider.channel === 'EMAIL' ? input.subject : null, body: input.body });
  if (!result) throw new AppError('PROVIDER_UNAVAILABLE', 'The provider is inactive or could not be loaded; see its configuration', { providerId: provider.id });
  const outcome = result.accepted ? { accepted: true, providerMessageId: result.providerMessageId } : { accepted: false, retryable: result.retryable, errorCode: result.errorCode, errorMessage: result.errorMessage };
  await deps.storage.auditLog.record({
    id: deps.ids.next(), actorUserId: who.userId, impersonatorUserId: null, organizationId: who.organizationId, action: who.action,
    target: who.target, details: { name: provider.name, to: recipient.recipient, ...outcome }, createdAt: deps.clock.now(),
  });
  return { providerId: provider.id, name: provider.name, to: recipient.recipient, ...outcome, latencyMs: deps.clock.now().getTime() - started };
}
