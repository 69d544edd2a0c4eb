import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Container } from 'inversify';
import { DEFAULT_WEB_ROOT } from '../../../hosts/api/middleware/web-app.ts';
import { loadConfig } from '../../../hosts/config.ts';
import { createLogger } from '../../../hosts/logger.ts';
import { startService } from '../../../hosts/service.ts';

export const ADMIN = { email: 'admin@nkra.test', password: 'admin-password-e2e-1' };

export interface E2eServer {
  url: string;
  /** The server's DATA_DIR (emails land in its outbox/). */
  dataDir: string;
  container: Container;
  /** Paths and methods of the server's OpenAPI document ("POST /billing/top-up"). */
  routes: Set<string>;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Builds the dashboard when hosts/web/dist is missing or older than its sources (npm ci normally did it through `prepare`). */
export function ensureDashboardBuilt(): void {
  const index = path.join(DEFAULT_WEB_ROOT, 'index.html');
  const web = path.resolve(import.meta.dirname, '../../../hosts/web');
  const sources = [...readdirSync(path.join(web, 'src'), { recursive: true, encoding: 'utf8' }).map((f) => path.join(web, 'src', f)), path.join(web, 'index.html'), path.join(web, 'vite.config.ts')];
  if (existsSync(index) && sources.every((f) => statSync(f).mtimeMs <= statSync(index).mtimeMs)) return;
  execFileSync(process.execPath, [path.resolve(import.meta.dirname, '../../../hosts/web/build.ts')], { stdio: 'inherit', timeout: 120_000 });
}

/**
 * `npm start` in-process (hosts/service.ts, what hosts/main.ts runs), on the embedded default (PGlite in a
 * fresh temporary DATA_DIR), on a free port.
 * In-process so a test can reach the container (e.g. to credit a wallet while no top-up API exists).
 */
/** `env`: more settings for the service (e.g. VENDOR_BASE_URLS pointing at a local fake vendor). */
export async function startE2eServer(env: Record<string, string> = {}): Promise<E2eServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'nkra-e2e-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const config = await loadConfig({
    NODE_ENV: 'development', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, PUBLIC_URL: url, LOG_LEVEL: 'silent',
    ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, PAYMENT_GATEWAY: 'sandbox', WORKER_CONCURRENCY: '2',
    EGRESS_ALLOW_PRIVATE_HOSTS: '127.0.0.1,localhost', // the webhook step's receiver listens on 127.0.0.1
    // Marketing sends (campaigns, opt-out links) must not depend on the hour the suite runs at: after 19:00 in Accra
    // they would wait for 08:00. Send windows are tested under a fake clock (tests/unit/consent/send-windows.test.ts).
    SEND_WINDOWS: 'off',
    ...env,
  });
  const service = await startService(config, createLogger(config.logLevel));
  const doc = await (await fetch(`${url}/openapi.json`)).json() as { paths: Record<string, Record<string, unknown>> };
  const routes = new Set<string>();
  for (const [p, ops] of Object.entries(doc.paths)) for (const m of Object.keys(ops)) routes.add(`${m.toUpperCase()} ${p}`);
  return {
    url, dataDir, container: service.apiContainer, routes,
    close: async () => {
      await service.stop(1_000);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
