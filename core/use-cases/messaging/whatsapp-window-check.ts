import { AppError } from '../../errors.ts';
import { WHATSAPP_WINDOW_MS, whatsappWindowOpen } from '../../domain/conversation.ts';
import type { Repositories } from '../../ports/storage.ts';
import type { AcceptOutcome, AcceptRequest } from './accept-messages.ts';

/** What the window check decided: the requests it refused, and the mapped messages (`"i:k"`) inside the window, sent as text. */
export interface WindowDecisions {
  refused: number[];
  asText: Set<string>;
}

/**
 * WhatsApp's customer-service window (docs/conversations.md, docs/whatsapp-templates.md), one lookup
 * for the whole batch:
 * - a message of a template mapped to a Meta template (`metaTemplate`) goes as that Meta template when
 *   the recipient's last inbound WhatsApp message is 24 h old or more (or there is none), as text
 *   inside the window; outside it a mapping Meta has not approved (last check) refuses the request
 *   WHATSAPP_TEMPLATE_NOT_APPROVED;
 * - a live free-form message (no approved WHATSAPP template) outside the window refuses the request
 *   WHATSAPP_WINDOW_CLOSED, unless the request is `whatsappWindowExempt` (Verify passcodes).
 * A refusal comes before anything is charged (`details.index`: which message) and leaves the request
 * out of the batch; the others go on. Sandbox sends are not checked (and go as text).
 */
export async function applyWhatsappWindows(tx: Repositories, requests: readonly AcceptRequest[], outcomes: Array<AcceptOutcome | null>, now: Date): Promise<WindowDecisions> {
  const checks: Array<{ i: number; k: number; organizationId: string; address: string }> = [];
  const asText = new Set<string>();
  requests.forEach((r, i) => {
    if (outcomes[i]) return;
    r.prepared.forEach((p, k) => {
      if (p.channel !== 'WHATSAPP') return;
      if (r.ctx.isSandbox) { if (p.metaTemplate) asText.add(`${i}:${k}`); return; }
      if (p.metaTemplate || (p.templateId === null && !r.whatsappWindowExempt)) checks.push({ i, k, organizationId: r.ctx.organizationId, address: p.recipient });
    });
  });
  if (checks.length === 0) return { refused: [], asText };
  const last = await tx.conversations.lastInboundAt('WHATSAPP', checks);
  const refused: number[] = [];
  checks.forEach((c, n) => {
    const lastInboundAt = last[n] ?? null;
    if (outcomes[c.i]) return;
    const mapped = requests[c.i]!.prepared[c.k]!.metaTemplate;
    if (whatsappWindowOpen(lastInboundAt, now)) {
      if (mapped) asText.add(`${c.i}:${c.k}`);
      return;
    }
    if (mapped?.approved) return;
    const details = { index: c.k, to: c.address, lastInboundAt: lastInboundAt?.toISOString() ?? null };
    outcomes[c.i] = { error: mapped
      ? new AppError('WHATSAPP_TEMPLATE_NOT_APPROVED', `The recipient is outside the 24-hour window and the template's Meta template ${mapped.send.name} (${mapped.send.language.code}) is not approved: ${mapped.why}`,
        { ...details, metaTemplate: mapped.send.name, metaStatus: mapped.status })
      : new AppError('WHATSAPP_WINDOW_CLOSED', lastInboundAt
        ? `The WhatsApp customer-service window closed at ${new Date(lastInboundAt.getTime() + WHATSAPP_WINDOW_MS).toISOString()}: send an approved WhatsApp template`
        : 'The recipient has not written to you on WhatsApp: outside the 24-hour customer-service window only an approved WhatsApp template may be sent', details) };
    refused.push(c.i);
  });
  return { refused, asText };
}
