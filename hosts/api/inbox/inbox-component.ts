/**
 * The embeddable bell (docs/inbox.md): a dependency-free custom element, `<nkra-inbox app-id
 * subscriber-id subscriber-hash [api-url]>`, in Shadow DOM. It reads the feed, keeps an EventSource
 * open on /inbox/v1/stream (new items appear without a reload; the browser resumes with
 * Last-Event-ID after a drop), and marks items read. With `web-push-key` (the web-push provider's VAPID
 * public key) and `service-worker` (a worker script on the page's own origin) it offers "Enable browser
 * notifications": it subscribes the browser and hands the subscription JSON to the page
 * (`nkra-inbox:push-subscription`), whose backend stores it (docs/inbox.md). Served as a classic script so
 * `document.currentScript` tells it which server it came from.
 */
export const INBOX_COMPONENT_JS = String.raw`(() => {
  'use strict';
  if (customElements.get('nkra-inbox')) return;
  const scriptOrigin = document.currentScript && document.currentScript.src ? new URL(document.currentScript.src).origin : location.origin;
  const STYLE = ` + '`' + String.raw`
    :host { position: relative; display: inline-block; font: 14px/1.4 system-ui, sans-serif; color: #1f2937; }
    button { font: inherit; cursor: pointer; }
    .bell { position: relative; background: none; border: 1px solid #d1d5db; border-radius: 999px; width: 40px; height: 40px; display: grid; place-items: center; }
    .bell:focus-visible, .panel button:focus-visible, li:focus-visible { outline: 2px solid #2563eb; outline-offset: 2px; }
    .badge { position: absolute; top: -4px; right: -4px; min-width: 18px; height: 18px; padding: 0 4px; border-radius: 9px; background: #dc2626; color: #fff; font-size: 11px; line-height: 18px; text-align: center; }
    .badge[hidden] { display: none; }
    .panel { position: absolute; right: 0; top: 48px; width: min(340px, calc(100vw - 16px)); max-height: 420px; overflow: auto; background: #fff; border: 1px solid #d1d5db; border-radius: 8px; box-shadow: 0 8px 24px rgba(0,0,0,.12); z-index: 1000; }
    .panel[hidden] { display: none; }
    header { display: flex; justify-content: space-between; align-items: center; padding: 8px 12px; border-bottom: 1px solid #e5e7eb; }
    header h2 { font-size: 15px; margin: 0; }
    header button, .more { background: none; border: none; color: #2563eb; padding: 4px; }
    ul { list-style: none; margin: 0; padding: 0; }
    li { padding: 10px 12px; border-bottom: 1px solid #f3f4f6; cursor: pointer; }
    li.unread { background: #eff6ff; }
    li.unread .subject::before { content: '● '; color: #2563eb; }
    .subject { font-weight: 600; }
    .time { color: #6b7280; font-size: 12px; }
    .empty, .error { padding: 16px 12px; color: #6b7280; }
    .more, .push { width: 100%; padding: 8px; }
    .push { background: none; border: none; border-bottom: 1px solid #e5e7eb; color: #2563eb; }
    .push[hidden] { display: none; }
  ` + '`' + String.raw`;

  class NkraInbox extends HTMLElement {
    static get observedAttributes() { return ['app-id', 'subscriber-id', 'subscriber-hash', 'api-url']; }
    constructor() {
      super();
      this.items = new Map();
      this.counts = { unread: 0, unseen: 0, total: 0 };
      this.cursor = null;
      this.source = null;
      const root = this.attachShadow({ mode: 'open' });
      // A constructed stylesheet passes pages whose Content-Security-Policy refuses inline <style>.
      let inline = '<style>' + STYLE + '</style>';
      if ('adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
        const sheet = new CSSStyleSheet(); sheet.replaceSync(STYLE); root.adoptedStyleSheets = [sheet]; inline = '';
      }
      root.innerHTML = inline +
        '<button class="bell" part="bell" type="button" aria-haspopup="true" aria-expanded="false" aria-label="Notifications">' +
        '<svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2"><path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9"/><path d="M13.7 21a2 2 0 0 1-3.4 0"/></svg>' +
        '<span class="badge" part="badge" hidden></span></button>' +
        '<section class="panel" part="panel" role="region" aria-label="Notifications" hidden>' +
        '<header><h2>Notifications</h2><button class="mark-all" type="button">Mark all as read</button></header>' +
        '<button class="push" part="push" type="button" hidden>Enable browser notifications</button>' +
        '<ul role="list" aria-live="polite"></ul><div class="empty">No notifications yet</div>' +
        '<button class="more" type="button" hidden>Load older</button></section>';
      this.bell = root.querySelector('.bell');
      this.badge = root.querySelector('.badge');
      this.panel = root.querySelector('.panel');
      this.list = root.querySelector('ul');
      this.empty = root.querySelector('.empty');
      this.more = root.querySelector('.more');
      this.pushButton = root.querySelector('.push');
      this.pushButton.addEventListener('click', () => this.enablePush());
      this.bell.addEventListener('click', () => this.toggle());
      root.querySelector('.mark-all').addEventListener('click', () => this.markAll('read'));
      this.more.addEventListener('click', () => this.load(this.cursor));
      this.list.addEventListener('click', (e) => { const li = e.target.closest('li'); if (li) this.markOne(li.dataset.id, 'read'); });
      this.list.addEventListener('keydown', (e) => { const li = e.target.closest('li'); if (li && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); this.markOne(li.dataset.id, 'read'); } });
      this.panel.addEventListener('keydown', (e) => { if (e.key === 'Escape') { this.toggle(false); this.bell.focus(); } });
    }
    /**
     * The dashboard's time pattern (hosts/web/src/format.ts: "23 Nov 2026, 06:06"), in the zone of the
     * attribute time-zone (the organization's, an IANA name; the dashboard's snippet sets it), else the reader's.
     */
    formatTime(iso) {
      const options = { year: 'numeric', month: 'short', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };
      const zone = this.getAttribute('time-zone');
      try { return new Date(iso).toLocaleString('en-GB', zone ? { ...options, timeZone: zone } : options); } catch { return new Date(iso).toLocaleString('en-GB', options); }
    }
    get api() { return (this.getAttribute('api-url') || scriptOrigin).replace(/\/$/, ''); }
    get creds() { return { appId: this.getAttribute('app-id') || '', subscriberId: this.getAttribute('subscriber-id') || '', subscriberHash: this.getAttribute('subscriber-hash') || '' }; }
    headers() { const c = this.creds; return { 'X-Inbox-App-Id': c.appId, 'X-Inbox-Subscriber-Id': c.subscriberId, 'X-Inbox-Subscriber-Hash': c.subscriberHash }; }
    connectedCallback() { this.restart(); }
    disconnectedCallback() { this.stop(); }
    attributeChangedCallback() { if (this.isConnected) this.restart(); }
    stop() { if (this.source) this.source.close(); this.source = null; }
    restart() {
      this.stop();
      clearTimeout(this.restartTimer);
      this.restartTimer = setTimeout(() => {
        const c = this.creds;
        if (!c.appId || !c.subscriberId || !c.subscriberHash) return;
        this.items.clear(); this.cursor = null; this.render();
        this.load(null).then((ok) => { if (ok) this.listen(); });
      }, 0);
    }
    async request(method, path, body) {
      const init = { method, headers: this.headers() };
      if (body) { init.headers['Content-Type'] = 'application/json'; init.body = JSON.stringify(body); }
      const res = await fetch(this.api + path, init);
      const json = await res.json().catch(() => null);
      if (!res.ok || !json || !json.success) throw new Error((json && json.error && json.error.message) || ('HTTP ' + res.status));
      return json.data;
    }
    async load(cursor) {
      try {
        const data = await this.request('GET', '/inbox/v1/feed?limit=20' + (cursor ? '&cursor=' + encodeURIComponent(cursor) : ''));
        for (const item of data.items) this.items.set(item.id, item);
        this.cursor = data.nextCursor;
        this.counts = data.counts;
        this.error = null;
        this.render();
        return true;
      } catch (e) {
        this.error = e.message; this.render();
        this.dispatchEvent(new CustomEvent('nkra-inbox:error', { detail: { message: e.message } }));
        return false;
      }
    }
    listen() {
      const c = this.creds;
      const url = this.api + '/inbox/v1/stream?appId=' + encodeURIComponent(c.appId) + '&subscriberId=' + encodeURIComponent(c.subscriberId) + '&subscriberHash=' + encodeURIComponent(c.subscriberHash);
      const source = new EventSource(url);
      this.source = source;
      source.addEventListener('item', (e) => {
        const item = JSON.parse(e.data);
        const fresh = !this.items.has(item.id);
        this.items.set(item.id, item);
        if (fresh && !item.read) { this.counts.unread += 1; this.counts.unseen += item.seen ? 0 : 1; this.counts.total += 1; }
        this.render();
        this.dispatchEvent(new CustomEvent('nkra-inbox:item', { detail: item }));
      });
      source.addEventListener('counts', (e) => { this.counts = JSON.parse(e.data); this.render(); });
      source.addEventListener('marked', (e) => {
        const change = JSON.parse(e.data);
        const now = new Date().toISOString();
        for (const item of this.items.values()) {
          if (change.ids !== 'all' && !change.ids.includes(item.id)) continue;
          if (change.mark === 'read' || change.mark === 'archived') { item.read = true; item.seen = true; item.readAt = item.readAt || now; }
          if (change.mark === 'seen') item.seen = true;
          if (change.mark === 'unread') item.read = false;
          if (change.mark === 'archived') this.items.delete(item.id);
        }
        this.render();
      });
    }
    /** Web Push offered only with a key and a worker, in a browser that has it, when the person has not refused notifications. */
    get pushOffered() {
      return !!(this.getAttribute('web-push-key') && this.getAttribute('service-worker') && 'serviceWorker' in navigator && 'PushManager' in window
        && typeof Notification === 'function' && Notification.permission !== 'denied' && !this.pushEnabled);
    }
    async enablePush() {
      try {
        if ((await Notification.requestPermission()) !== 'granted') throw new Error('Notifications were not allowed');
        const registration = await navigator.serviceWorker.register(this.getAttribute('service-worker'));
        const b64 = this.getAttribute('web-push-key').replace(/-/g, '+').replace(/_/g, '/');
        const raw = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
        const applicationServerKey = Uint8Array.from(raw, (c) => c.charCodeAt(0));
        const subscription = (await registration.pushManager.getSubscription()) || (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey }));
        this.pushEnabled = true;
        this.render();
        this.dispatchEvent(new CustomEvent('nkra-inbox:push-subscription', { detail: { subscription: JSON.stringify(subscription) } }));
      } catch (e) {
        this.dispatchEvent(new CustomEvent('nkra-inbox:error', { detail: { message: 'Browser notifications: ' + (e && e.message ? e.message : String(e)) } }));
      }
    }
    toggle(open) {
      const show = open === undefined ? this.panel.hidden : open;
      if (show) { // open towards the side with room, so the panel stays on screen wherever the bell sits
        const room = this.getBoundingClientRect().right;
        const width = Math.min(340, window.innerWidth - 16);
        this.panel.style.right = room >= width ? '0' : 'auto';
        this.panel.style.left = room >= width ? 'auto' : '0';
      }
      this.panel.hidden = !show;
      this.bell.setAttribute('aria-expanded', String(show));
      if (show && this.counts.unseen > 0) this.markAll('seen');
    }
    async markOne(id, mark) {
      const item = this.items.get(id);
      if (!item || (mark === 'read' && item.read)) return;
      try { const data = await this.request('POST', '/inbox/v1/items/' + encodeURIComponent(id) + '/mark', { mark }); if (data.item) this.items.set(id, data.item); this.counts = data.counts; this.render(); }
      catch (e) { this.error = e.message; this.render(); }
    }
    async markAll(mark) {
      try { const data = await this.request('POST', '/inbox/v1/mark-all', { mark }); this.counts = data.counts;
        for (const item of this.items.values()) { item.seen = true; if (mark === 'read') item.read = true; }
        this.render(); }
      catch (e) { this.error = e.message; this.render(); }
    }
    render() {
      const unread = this.counts.unread;
      this.badge.hidden = unread === 0;
      this.badge.textContent = unread > 99 ? '99+' : String(unread);
      this.bell.setAttribute('aria-label', unread === 0 ? 'Notifications' : 'Notifications, ' + unread + ' unread');
      const items = [...this.items.values()].sort((a, b) => (a.id < b.id ? 1 : -1));
      this.list.replaceChildren(...items.map((item) => {
        const li = document.createElement('li');
        li.dataset.id = item.id;
        li.tabIndex = 0;
        li.className = item.read ? 'read' : 'unread';
        li.setAttribute('aria-label', (item.read ? '' : 'Unread: ') + (item.subject || item.body));
        if (item.subject) { const s = document.createElement('div'); s.className = 'subject'; s.textContent = item.subject; li.append(s); }
        const b = document.createElement('div'); b.className = item.subject ? 'body' : 'body subject'; b.textContent = item.body; li.append(b);
        const t = document.createElement('div'); t.className = 'time'; t.textContent = this.formatTime(item.createdAt); li.append(t);
        return li;
      }));
      this.empty.hidden = items.length > 0 && !this.error;
      this.empty.className = this.error ? 'error' : 'empty';
      this.empty.textContent = this.error ? 'Could not load notifications: ' + this.error : 'No notifications yet';
      if (this.error) this.empty.hidden = false;
      this.more.hidden = !this.cursor;
      this.pushButton.hidden = !this.pushOffered;
    }
  }
  customElements.define('nkra-inbox', NkraInbox);
})();
`;

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** GET /inbox/example: a page with the bell for the credentials in the query string, and a form to change them. */
export function inboxExamplePage(query: Record<string, string | undefined>): string {
  const value = (name: string) => escape((query[name] ?? '').slice(0, 200));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Nkra inbox example</title>
<style>body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#111827}nav{display:flex;justify-content:space-between;align-items:center;padding:12px 24px;border-bottom:1px solid #e5e7eb}
main{max-width:720px;margin:24px auto;padding:0 24px}label{display:block;margin:8px 0 2px}input{width:100%;padding:6px;font:inherit;box-sizing:border-box}button{margin-top:12px;padding:6px 12px;font:inherit}code{background:#f3f4f6;padding:1px 4px}</style>
<script src="/inbox/v1/inbox.js"></script></head>
<body><nav><strong>Example app</strong><nkra-inbox app-id="${value('appId')}" subscriber-id="${value('subscriberId')}" subscriber-hash="${value('subscriberHash')}"${query['timeZone'] ? ` time-zone="${value('timeZone')}"` : ''}></nkra-inbox></nav>
<main><h1>In-app inbox example</h1>
<p>The bell above is <code>&lt;nkra-inbox&gt;</code>, served by this API at <code>/inbox/v1/inbox.js</code>. Your backend computes
<code>subscriberHash</code> = hex HMAC-SHA256 of the subscriber id with the organization's inbox secret (docs/inbox.md); the dashboard's Inbox page can compute one for a try.</p>
<form method="get" action="/inbox/example"><label for="appId">appId</label><input id="appId" name="appId" value="${value('appId')}">
<label for="subscriberId">subscriberId</label><input id="subscriberId" name="subscriberId" value="${value('subscriberId')}">
<label for="subscriberHash">subscriberHash</label><input id="subscriberHash" name="subscriberHash" value="${value('subscriberHash')}">
<button type="submit">Show this subscriber's bell</button></form>
<p>Then trigger an event or send an IN_APP message to the subscriber (<code>POST /messages/send</code> with <code>"channel": "IN_APP", "to": "&lt;subscriberId&gt;"</code>): it appears in the bell without a reload.</p>
</main></body></html>`;
}
