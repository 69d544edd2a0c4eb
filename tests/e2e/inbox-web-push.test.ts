import http from 'node:http';
import { createRequire } from 'node:module';
import { expect } from 'chai';
import { ApiClient } from '../support/api-client.ts';
import { registerTenant } from '../support/tenants.ts';
import { parseWebPushSubscription } from '../../core/domain/web-push-subscription.ts';
import { newPage } from './support/browser.ts';
import { useBrowserSuite } from './support/browser-suite.ts';

const webpush = createRequire(import.meta.url)('web-push') as { generateVAPIDKeys(): { publicKey: string; privateKey: string } };

/** A tenant's page on its own origin embedding the bell, with or without the Web Push attributes. */
async function tenantSite(nkraUrl: string, bell: string) {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Kente Shop</title>
<script src="${nkraUrl}/inbox/v1/inbox.js"></script></head><body>${bell}
<script>document.querySelector('nkra-inbox').addEventListener('nkra-inbox:push-subscription', (e) => { window.subscription = e.detail.subscription; });</script></body></html>`;
  const server = http.createServer((_req, res) => { res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }); res.end(html); });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * The bell's "Enable browser notifications" (issue 29, Web Push): with the provider's VAPID public key
 * and the tenant's service worker URL, it subscribes the browser with that key and hands the
 * subscription JSON to the page. Headless Chromium has no push service, so the service worker
 * registration and PushManager are stubbed in the page; what is checked is the component's part: the
 * key it subscribes with, the event it sends, and that nothing is offered without the attributes.
 */
describe('E2E: the inbox bell offers browser notifications (Web Push)', function () {
  this.timeout(90_000);
  const suite = useBrowserSuite();

  it('subscribes with the VAPID key and hands the subscription to the page; offers nothing without the attributes', async () => {
    const api = new ApiClient(suite.server.url);
    const tenant = await registerTenant(api, 'inbox-webpush-e2e');
    const { appId } = (await api.post('/inbox/settings/secret', undefined, tenant.auth)).body.data as { appId: string };
    const { subscriberHash } = (await api.post('/inbox/settings/subscriber-hash', { subscriberId: 'customer-7' }, tenant.auth)).body.data as { subscriberHash: string };
    const { publicKey } = webpush.generateVAPIDKeys();
    const creds = `app-id="${appId}" subscriber-id="customer-7" subscriber-hash="${subscriberHash}"`;
    const withPush = await tenantSite(suite.server.url, `<nkra-inbox ${creds} web-push-key="${publicKey}" service-worker="/sw.js"></nkra-inbox>`);
    const without = await tenantSite(suite.server.url, `<nkra-inbox ${creds}></nkra-inbox>`);
    const { page, context, errors } = await newPage(suite.browser, withPush.url);
    try {
      // Browser code as text (the test's TypeScript has no DOM types): stubs for what headless Chromium lacks.
      await page.addInitScript(`
        const endpoint = 'https://fcm.googleapis.com/fcm/send/e2e-subscription';
        const keys = { p256dh: 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U', auth: 'tBHItJI5svbpez7KI4CCXg' };
        Object.defineProperty(Notification, 'permission', { get: () => 'default' });
        Notification.requestPermission = async () => 'granted';
        Object.defineProperty(navigator.serviceWorker, 'register', { value: async (url) => {
          window.registeredWorker = url;
          return { pushManager: {
            getSubscription: async () => null,
            subscribe: async (options) => {
              window.subscribedWith = { userVisibleOnly: options.userVisibleOnly, key: Array.from(options.applicationServerKey) };
              return { toJSON: () => ({ endpoint, expirationTime: null, keys }) };
            },
          } };
        } });
      `);
      await page.goto(withPush.url);
      await page.getByRole('button', { name: 'Notifications' }).click();
      await page.getByRole('button', { name: 'Enable browser notifications' }).click();
      await page.waitForFunction('window.subscription !== undefined');
      const seen = await page.evaluate('({ subscription: window.subscription, worker: window.registeredWorker, subscribedWith: window.subscribedWith })') as
        { subscription: string; worker: string; subscribedWith: { userVisibleOnly: boolean; key: number[] } };
      expect(seen.worker).to.equal('/sw.js');
      expect(seen.subscribedWith.userVisibleOnly).to.equal(true);
      expect(Buffer.from(seen.subscribedWith.key).toString('base64url')).to.equal(publicKey);
      const read = parseWebPushSubscription(seen.subscription);
      expect(read.ok, seen.subscription).to.equal(true);
      expect(await page.getByRole('button', { name: 'Enable browser notifications' }).isHidden()).to.equal(true);

      await page.goto(without.url);
      await page.getByRole('button', { name: 'Notifications' }).click();
      await page.getByRole('button', { name: 'Mark all as read' }).waitFor();
      expect(await page.getByRole('button', { name: 'Enable browser notifications' }).count()).to.equal(0);
      expect(errors).to.deep.equal([]);
    } finally {
      await context.close();
      await withPush.close();
      await without.close();
    }
  });
});
