import type { Channel } from '../../../core/domain/channel.ts';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const CHANNEL_NAMES: Record<Channel, string> = { SMS: 'text messages', WHATSAPP: 'WhatsApp messages', EMAIL: 'emails', PUSH: 'notifications', VOICE: 'calls', IN_APP: 'in-app notifications' };
const CATEGORY_NAMES: Record<string, string> = {
  MARKETING: 'Offers and promotions', REMINDER: 'Reminders', ALERT: 'Alerts', HEALTHCARE: 'Health updates', INSURANCE: 'Insurance updates',
  LOGISTICS: 'Delivery updates', FINTECH: 'Account and payment news', ECOMMERCE: 'Shop updates',
};

/**
 * The hosted opt-out page (docs/consent.md): plain HTML forms that work without JavaScript, sized for a
 * small phone screen, no third-party resources (nothing about the recipient leaves the page).
 */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><meta name="referrer" content="no-referrer"><title>${escape(title)}</title>
<style>body{font-family:system-ui,-apple-system,sans-serif;max-width:30rem;margin:0 auto;padding:1rem;color:#1d1d1f;line-height:1.45}
h1{font-size:1.3rem}.box{border:1px solid #d6d6d6;border-radius:10px;padding:1rem 1.1rem;margin:1rem 0}
button{font-size:1rem;padding:.75rem 1rem;width:100%;border-radius:8px;border:1px solid #8a8a8a;background:#fff;cursor:pointer;margin-top:.5rem}
button.primary{background:#b3261e;border-color:#b3261e;color:#fff}label{display:flex;gap:.6rem;align-items:center;padding:.45rem 0;font-size:1rem}
input[type=checkbox]{width:1.3rem;height:1.3rem}.muted{color:#5f6368;font-size:.9rem}.done{background:#e6f4ea;border-color:#a8d5b5}</style></head>
<body><main>${body}</main></body></html>`;
}

export interface OptOutPageView {
  organizationName: string;
  channel: Channel;
  recipient: string;
  suppressed: boolean;
  exemptCategories: readonly string[];
  preferences: ReadonlyArray<{ category: string; channel: Channel; optedIn: boolean }>;
}

export const UNSUBSCRIBED_NOTICE = 'You are unsubscribed from offers and promotions.';

export function optOutPageHtml(view: OptOutPageView, action: string, notice: string | null): string {
  const what = CHANNEL_NAMES[view.channel];
  const marketing = view.preferences.find((p) => p.category === 'MARKETING');
  // Unsubscribed: said once (the notice right after the tap, else a status line), and no button left to tap (issue 35).
  const unsubscribed = marketing !== undefined && !marketing.optedIn;
  const unsubscribeBox = unsubscribed
    ? (notice === UNSUBSCRIBED_NOTICE ? '' : `<div class="box" role="status">${UNSUBSCRIBED_NOTICE}</div>`)
    : `<form method="post" action="${escape(action)}" class="box">
<input type="hidden" name="action" value="unsubscribe">
<p>Stop offers and promotions by ${escape(what)}?</p>
<button class="primary" type="submit">Unsubscribe</button>
</form>`;
  const boxes = view.preferences.map((p) => `<label><input type="checkbox" name="optedIn" value="${escape(p.category)}"${p.optedIn ? ' checked' : ''}> ${escape(CATEGORY_NAMES[p.category] ?? p.category)}</label>`).join('\n');
  return htmlPage(`${view.organizationName}: your ${what}`, `<h1>${escape(view.organizationName)}</h1>
<p>Messages to <strong>${escape(view.recipient)}</strong> (${escape(what)}).</p>
${notice ? `<div class="box done" role="status">${escape(notice)}</div>` : ''}
${view.suppressed ? `<div class="box" role="status">You get no ${escape(what)} from ${escape(view.organizationName)} at all.</div>` : ''}
${unsubscribeBox}
<form method="post" action="${escape(action)}" class="box">
<input type="hidden" name="action" value="preferences">
<p>Or choose what ${escape(view.organizationName)} may send you by ${escape(what)}:</p>
${boxes}
<button type="submit">Save my choices</button>
</form>
<p class="muted">Receipts, one-time codes and other messages you asked for still reach you.</p>`);
}

export function notFoundHtml(): string {
  return htmlPage('Link not valid', '<h1>This link is not valid</h1><p>Check that the whole link was copied from the message.</p>');
}
