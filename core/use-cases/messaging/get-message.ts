import { AppError } from '../../errors.ts';
import { deliveryLogView } from '../../domain/message.ts';
import type { Storage } from '../../ports/storage.ts';

/**
 * GET /messages/{id}: one delivery log of the caller's organization (another organization's id ->
 * NOT_FOUND), with its body, every provider attempt and its status history.
 */
export class GetMessage {
  readonly #deps: { storage: Storage };
  constructor(deps: { storage: Storage }) { this.#deps = deps; }

  async execute(organizationId: string, id: string) {
    const message = await this.#deps.storage.messages.findById(organizationId, id);
    if (!message) throw new AppError('NOT_FOUND', 'Message not found');
    const [attempts, events] = await Promise.all([this.#deps.storage.messageStatus.listAttempts(id), this.#deps.storage.messageStatus.listEvents(id)]);
    return {
      ...deliveryLogView(message), subject: message.subject, body: message.body,
      ...(message.channel === 'PUSH' ? { imageUrl: message.push?.imageUrl ?? null, link: message.push?.link ?? null, data: message.push?.data ?? {} } : {}),
      attemptLog: attempts.map((a) => ({
        attempt: a.attempt, provider: a.provider, outcome: a.outcome, retryable: a.retryable, errorCode: a.errorCode,
        errorMessage: a.errorMessage, durationMs: a.durationMs, at: a.createdAt.toISOString(),
      })),
      statusHistory: [
        { status: message.scheduledAt ? 'SCHEDULED' : 'QUEUED', source: 'api', detail: null, at: message.createdAt.toISOString() },
        ...events.map((e) => ({ status: e.status, source: e.source, detail: e.detail, at: e.createdAt.toISOString() })),
      ],
    };
  }
}
