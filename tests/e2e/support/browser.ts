import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's chromium package (installed by .ci/run when missing): no browser download at test time. */
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
export const ARTIFACTS = path.resolve(import.meta.dirname, '../artifacts');

export function chromiumAvailable(): boolean { return existsSync(CHROMIUM); }

export async function launchBrowser(): Promise<Browser> {
  await mkdir(ARTIFACTS, { recursive: true });
  // Playwright gives every launch a fresh temporary profile (its own --user-data-dir).
  return chromium.launch({
    executablePath: CHROMIUM, headless: true, timeout: 30_000,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

/** Console errors and uncaught exceptions of the page's own code (the browser's "Failed to load resource" lines for 4xx answers the UI handles are not). */
export interface Watched { page: Page; context: BrowserContext; errors: string[] }

export async function newPage(browser: Browser, baseURL: string, viewport = { width: 1280, height: 860 }): Promise<Watched> {
  const context = await browser.newContext({ baseURL, viewport, acceptDownloads: true, timezoneId: 'Africa/Accra', locale: 'en-GB' });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => { if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  return { page, context, errors };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/**
 * Polls the JavaScript `expression` in the page until it evaluates to true. Unlike page.waitForFunction (which evals its
 * expression inside the page and so is refused by a `script-src 'self'` Content-Security-Policy), each
 * poll is a page.evaluate, which the DevTools protocol runs outside the page's CSP.
 */
export async function waitInPage(page: Page, expression: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await page.evaluate(expression)) !== true) {
    if (Date.now() > deadline) throw new Error(`waitInPage: ${expression} still not true after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Signs in through the dashboard's sign-in page (the page is left wherever the sign-in lands). */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * Opens a page from the main menu by its link, and waits for its heading (the link's name unless given). A click
 * made while the sign-in's own navigation is still landing can be overtaken by it (seen once in a loaded full
 * run): the link is clicked again, up to three times, before giving up.
 */
export async function openFromMenu(page: Page, link: string, heading: string = link): Promise<void> {
  const target = page.getByRole('heading', { level: 1, name: heading });
  for (let attempt = 1; ; attempt++) {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link }).click();
    try {
      await target.waitFor({ timeout: attempt < 3 ? 5_000 : 10_000 });
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

/** Polls `probe` every 200 ms until it answers a value; throws naming `what` after `timeoutMs`. */
export async function pollFor<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
