import { expect } from 'chai';
import { ApiClient } from '../support/api-client.ts';
import { registerUser } from '../support/tenants.ts';
import { newPage } from './support/browser.ts';
import { useBrowserSuite } from './support/browser-suite.ts';

/**
 * The sign-in page shows a throttled login's wait (issue 28 item 5, docs/permissions.md): Chromium against
 * the server as `npm start` runs it (the embedded database), after ten wrong passwords from this address.
 */
describe('E2E: the sign-in page shows how long a throttled login must wait', function () {
  this.timeout(120_000);
  const suite = useBrowserSuite({ dashboard: true });

  it('answers the eleventh attempt with the remaining minutes and the ways in (known device, password reset)', async () => {
    const api = new ApiClient(suite.server.url);
    const user = await registerUser(api, 'login-wait');
    for (let i = 0; i < 10; i += 1) expect((await api.post('/auth/login', { email: user.email, password: `wrong-${i}` })).status).to.equal(401);
    const { page, context, errors } = await newPage(suite.browser, suite.server.url);
    try {
      await page.goto('/sign-in');
      await page.getByLabel('Email').fill(user.email);
      await page.getByLabel('Password').fill(user.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      const wait = page.getByTestId('login-wait');
      await wait.waitFor();
      expect(await wait.textContent()).to.match(/Too many failed sign-in attempts\. Try again in 1?\d min \d\d s/);
      expect(await wait.getByRole('link', { name: 'resetting your password' }).count()).to.equal(1);
      expect(errors).to.deep.equal([]);
    } finally { await context.close(); }
  });
});
