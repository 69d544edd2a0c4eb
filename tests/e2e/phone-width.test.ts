import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { INFRA } from '../../hosts/tokens.ts';
import { ApiClient } from '../support/api-client.ts';
import { ADMIN } from './support/e2e-server.ts';
import { newPage, screenshot, signIn } from './support/browser.ts';
import { useBrowserSuite } from './support/browser-suite.ts';

/**
 * Issue 35, "At 390 px": every page of the dashboard (each link of the menu, tenant and platform
 * administrator, and the detail pages) on a 390x844 phone: the document never scrolls sideways (wide
 * tables scroll inside their own container), with a screenshot of each page in tests/e2e/artifacts.
 * The pages come from the menu itself, so a page added later is checked too.
 */
describe('E2E: every page fits a 390 px phone screen', function () {
  this.timeout(240_000);
  const suite = useBrowserSuite({ dashboard: true });
  const LONG_ORG = 'The Greater Accra Regional Association of Community Pharmacies and Wellness Shops Limited';

  /** Why the page does not fit, or null. */
  async function overflow(page: Page, label: string): Promise<string | null> {
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.waitForLoadState('networkidle');
    const { scroll, inner, culprits } = await page.evaluate(`(() => {
      const inner = window.innerWidth;
      const culprits = [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > inner + 1
        && !e.closest('.table-scroll, .scroll-x, nav#sidenav') && getComputedStyle(e).position !== 'fixed')
        .slice(0, 5).map((e) => e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).split(' ').join('.') : '') + ' ' + Math.round(e.getBoundingClientRect().right));
      return { scroll: document.documentElement.scrollWidth, inner, culprits };
    })()`) as { scroll: number; inner: number; culprits: string[] };
    await screenshot(page, `phone-${label}`);
    return scroll <= inner + 1 ? null : `${label} scrolls sideways (${scroll} > ${inner}): ${culprits.join(', ')}`;
  }

  async function menuLinks(page: Page): Promise<string[]> {
    const hrefs = await page.locator('nav#sidenav a').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
    return [...new Set(hrefs.filter((h) => h.startsWith('/app')))];
  }

  it('tenant pages, with a long organization name and rows in the tables', async () => {
    const api = new ApiClient(suite.server.url);
    const email = `phone-${Date.now()}@example.com`;
    const password = 'correct-horse-battery';
    const registered = await api.post('/auth/register', { email, password, firstName: 'Ama', lastName: 'Mensah', organizationName: LONG_ORG });
    expect(registered.status).to.equal(201);
    const auth = { token: registered.body.data.token as string, organizationId: registered.body.data.organizations[0].id as string };
    await suite.server.container.get(INFRA.storage).wallets.update(auth.organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: 'phone-seed', description: 'e2e credit' }), new Date());
    const sent = await api.post('/messages/send', { channel: 'SMS', to: '0241234567', body: 'A long enough message body to fill the table cell of the delivery logs page' }, auth);
    expect(sent.status, sent.text).to.be.oneOf([200, 201, 202]);
    const messageId = sent.body.data.id as string;
    await api.post('/messages/send', { channel: 'SMS', to: '0241234568', body: 'Your appointment is on Friday', sendAt: new Date(Date.now() + 86_400_000).toISOString() }, auth);
    const contact = await api.post('/contacts', { firstName: 'Kwabena', lastName: 'Asante-Darko', phone: '0241234569', email: 'kwabena.asante-darko@example.com' }, auth);
    expect(contact.status, contact.text).to.equal(201);

    const { page, context, errors } = await newPage(suite.browser, suite.server.url, { width: 390, height: 844 });
    try {
      await signIn(page, email, password);
      await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
      const links = await menuLinks(page);
      expect(links.length).to.be.at.least(15);
      const wide: string[] = [];
      for (const href of [...links, `/app/logs/${messageId}`, `/app/contacts/${contact.body.data.id}`]) {
        await page.goto(href);
        const why = await overflow(page, href.replace(/^\/app\/?/, '').replace(/\//g, '-') || 'overview');
        if (why) wide.push(why);
      }
      expect(wide).to.deep.equal([]);
      expect(errors).to.deep.equal([]);
    } finally {
      await context.close();
    }
  });

  it('platform administrator pages', async () => {
    const { page, context, errors } = await newPage(suite.browser, suite.server.url, { width: 390, height: 844 });
    try {
      await signIn(page, ADMIN.email, ADMIN.password);
      await page.locator('nav#sidenav a[href="/app/admin/tenants"]').waitFor({ state: 'attached' });
      const links = (await menuLinks(page)).filter((h) => h.startsWith('/app/admin'));
      expect(links.length).to.be.at.least(6);
      const wide: string[] = [];
      for (const href of links) {
        await page.goto(href);
        const why = await overflow(page, href.replace(/^\/app\//, '').replace(/\//g, '-'));
        if (why) wide.push(why);
      }
      await page.goto('/app/admin/providers');
      await page.getByRole('table').first().waitFor();
      const health = page.locator('main a[href^="/app/admin/providers/"]').first();
      expect(await health.count(), 'a provider health link on the providers page').to.equal(1);
      await health.click();
      const why = await overflow(page, 'admin-provider-health');
      if (why) wide.push(why);
      expect(wide).to.deep.equal([]);
      expect(errors).to.deep.equal([]);
    } finally {
      await context.close();
    }
  });
});
