import { AppError } from '../../errors.ts';
import { WHATSAPP_WINDOW_MS, whatsappWindowOpen } from '../../domain/conversation.ts';
import type { Repositories } from '../../ports/storage.ts';
import type { AcceptOutcome, AcceptRequest } from './accept-messages.ts';

/**
 * WhatsApp's customer-service window (docs/conversations.md): a live free-form WHATSAPP message (no
 * approved WHATSAPP template) may go only to a recipient whose last inbound WhatsApp message to the
 * organization is less than 24 h old. A request with such a message is refused WHATSAPP_WINDOW_CLOSED
 * (`details.index`: which message) before anything is charged, and left out of the batch; the others
 * go on. Sandbox sends and requests marked `whatsappWindowExempt` (Verify passcodes) are not checked.
 * One lookup for the whole batch. Returns the indexes of the requests it refused.
 */
export async function refuseClosedWhatsappWindows(tx: Repositories, requests: readonly AcceptRequest[], outcomes: Array<AcceptOutcome | null>, now: Date): Promise<number[]> {
  const checks: Array<{ i: number; k: number; organizationId: string; address: string }> = [];
  requests.forEach((r, i) => {
    if (outcomes[i] || r.ctx.isSandbox || r.whatsappWindowExempt) return;
    r.prepared.forEach((p, k) => {
      if (p.channel === 'WHATSAPP' && p.templateId === null) checks.push({ i, k, organizationId: r.ctx.organizationId, address: p.recipient });
    });
  });
  if (checks.length === 0) return [];
  const last = await tx.conversations.lastInboundAt('WHATSAPP', checks);
  const refused: number[] = [];
  checks.forEach((c, n) => {
    const lastInboundAt = last[n] ?? null;
    if (outcomes[c.i] || whatsappWindowOpen(lastInboundAt, now)) return;
    outcomes[c.i] = { error: new AppError('WHATSAPP_WINDOW_CLOSED', lastInboundAt
      ? `The WhatsApp customer-service window closed at ${new Date(lastInboundAt.getTime() + WHATSAPP_WINDOW_MS).toISOString()}: send an approved WhatsApp template`
      : 'The recipient has not written to you on WhatsApp: outside the 24-hour customer-service window only an approved WhatsApp template may be sent',
    { index: c.k, to: c.address, lastInboundAt: lastInboundAt?.toISOString() ?? null }) };
    refused.push(c.i);
  });
  return refused;
}
