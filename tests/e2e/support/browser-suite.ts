import type { Browser } from 'playwright-core';
import { chromiumAvailable, launchBrowser } from './browser.ts';
import { ensureDashboardBuilt, startE2eServer, type E2eServer } from './e2e-server.ts';

/** What an end-to-end suite's tests use: the server as `npm start` runs it, and headless Chromium. */
export interface BrowserSuite { server: E2eServer; browser: Browser }

/**
 * Registers the suite's before/after hooks: skips without Chromium (fails in CI, where it must be
 * installed), builds the dashboard when asked, starts the server and the browser once, closes both.
 * The returned object is filled in by the `before` hook.
 */
/** `env`: more settings for the server (startE2eServer). */
export function useBrowserSuite(options: { dashboard?: boolean; startTimeoutMs?: number; env?: Record<string, string> } = {}): BrowserSuite {
  const suite = {} as BrowserSuite;
  before(async function () {
    if (!chromiumAvailable()) {
      if (process.env['CI']) throw new Error('E2E: /usr/bin/chromium is missing (apt-get install chromium)');
      this.skip();
    }
    this.timeout(options.startTimeoutMs ?? 240_000);
    if (options.dashboard) ensureDashboardBuilt();
    suite.server = await startE2eServer(options.env);
    suite.browser = await launchBrowser();
  });
  after(async () => {
    await suite.browser?.close();
    await suite.server?.close();
  });
  return suite;
}
