import { AppError } from '../../errors.ts';
import { senderIdUsable, type SenderId, type SenderIdStatus } from '../../domain/sender-id.ts';
import { senderIdKey } from '../../ports/sender-id-repository.ts';
import type { Repositories } from '../../ports/storage.ts';

/** SENDER_ID_NOT_APPROVED for a sender ID in this status (null: the organization never requested it). */
export function senderIdRefusal(name: string, status: SenderIdStatus | null): AppError {
  const why = status === null ? 'is not registered for this organization; request it with POST /sender-ids'
    : status === 'PENDING' ? 'is waiting for review; live sends may use it once it is approved'
      : 'was rejected';
  return new AppError('SENDER_ID_NOT_APPROVED', `The sender ID ${name} ${why}`, { senderId: name, status: status ?? 'UNREGISTERED' });
}

/** One SMS of a send request that names a sender ID. */
export interface SenderIdUse { organizationId: string; name: string; sandbox: boolean }

/**
 * Checks the sender IDs named by SMS sends (docs/sender-ids.md) in one lookup: each use answers the
 * registered spelling to send under, or the refusal for that use. Live sends need APPROVED; sandbox
 * sends also take PENDING.
 */
export async function resolveSenderIds(repos: Pick<Repositories, 'senderIds'>, uses: readonly SenderIdUse[]): Promise<Array<{ name: string } | { error: AppError }>> {
  if (uses.length === 0) return [];
  const found = await repos.senderIds.findByNames(uses.map((u) => ({ organizationId: u.organizationId, name: u.name })));
  return uses.map((use) => {
    const senderId: SenderId | undefined = found.get(senderIdKey(use.organizationId, use.name));
    if (!senderId || !senderIdUsable(senderId.status, use.sandbox)) return { error: senderIdRefusal(use.name, senderId?.status ?? null) };
    return { name: senderId.name };
  });
}

