import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export { freePort } from '../support/processes.ts';
import { freePort } from '../support/processes.ts';

export interface RealApi {
  url: string;
  output(): string;
  close(): Promise<void>;
}

/** `node hosts/main.ts` (API + worker) on the embedded PGlite in a new data directory, NODE_ENV=test. */
export async function startRealApi(): Promise<RealApi> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'nkra-clients-'));
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['hosts/main.ts'], {
    cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env['PATH'] ?? '', HOME: os.tmpdir(), DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'test', LOG_LEVEL: 'info' },
  });
  let output = '';
  child.stdout!.on('data', (d) => { output = (output + String(d)).slice(-20_000); });
  child.stderr!.on('data', (d) => { output = (output + String(d)).slice(-20_000); });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const deadline = Date.now() + 60_000;
  while (!output.includes('"nkra ready"')) {
    if (child.exitCode !== null) throw new Error(`the API exited early:\n${output}`);
    if (Date.now() > deadline) { child.kill('SIGKILL'); throw new Error(`the API was not ready in 60 s:\n${output}`); }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    async close() {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface DroppingProxy {
  url: string;
  /** Connections whose response was dropped so far. */
  dropped: number;
  /** Requests (connections) seen. */
  connections: number;
  /** The next `n` connections reach the API, but their response is cut before a byte reaches the client. */
  dropNext(n: number): void;
  close(): Promise<void>;
}

/**
 * A TCP proxy in front of the API that can drop responses: the request is delivered and processed,
 * then the connection is destroyed when the answer starts - a network failure after the server
 * acted, the case idempotency keys exist for.
 */
export async function startDroppingProxy(target: string): Promise<DroppingProxy> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<net.Socket>();
  const state = { dropped: 0, connections: 0, armed: 0 };
  const server = net.createServer((client) => {
    state.connections += 1;
    const doomed = state.armed > 0;
    if (doomed) state.armed -= 1;
    const upstream = net.connect(Number(port), hostname);
    sockets.add(client); sockets.add(upstream);
    client.on('close', () => { sockets.delete(client); upstream.destroy(); });
    upstream.on('close', () => { sockets.delete(upstream); client.destroy(); });
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.pipe(upstream);
    upstream.on('data', (chunk) => {
      if (doomed) {
        state.dropped += 1;
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
    upstream.on('end', () => client.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    get dropped() { return state.dropped; },
    get connections() { return state.connections; },
    dropNext(n: number) { state.armed = n; },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** JSON over fetch for the test's own setup calls (JWT routes). */
export async function call(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(`${base}${path}`, {
    method, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? null : JSON.stringify(body), signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try { parsed = JSON.parse(text); } catch { /* keep text */ }
  return { status: response.status, body: parsed };
}

export interface ApiTenant {
  token: string;
  organizationId: string;
  jwt: Record<string, string>;
  sandboxKey: string;
  eventSlug: string;
}

/** Registers a user and organization, creates a sandbox API key, an SMS template and an event with a WhatsApp fallback. */
export async function setUpTenant(base: string, label: string): Promise<ApiTenant> {
  const email = `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const registered = await call(base, 'POST', '/auth/register', { email, password: 'correct-horse-battery', firstName: 'Ama', lastName: 'Mensah', organizationName: `Clients ${label}` });
  if (registered.status !== 201) throw new Error(`register failed: ${JSON.stringify(registered.body)}`);
  const token = registered.body.data.token as string;
  const organizationId = registered.body.data.organizations[0].id as string;
  const jwt = { authorization: `Bearer ${token}`, 'x-organization-id': organizationId };
  const key = await call(base, 'POST', '/api-keys', { name: `${label} sandbox`, isSandbox: true, scopes: ['messages:send', 'messages:read', 'events:read', 'events:trigger', 'verify:send'] }, jwt);
  if (key.status !== 201) throw new Error(`api key failed: ${JSON.stringify(key.body)}`);
  const template = await call(base, 'POST', '/templates', { name: 'Shipped', channel: 'SMS', body: 'Hi {{name}}, order {{order}} shipped' }, jwt);
  const eventSlug = `order.shipped.${label}`;
  const event = await call(base, 'POST', '/events', { name: 'Order shipped', slug: eventSlug, templateId: template.body.data.id, fallbackRules: { channels: ['WHATSAPP'] } }, jwt);
  if (event.status !== 201) throw new Error(`event failed: ${JSON.stringify(event.body)}`);
  return { token, organizationId, jwt, sandboxKey: key.body.data.key as string, eventSlug };
}

/** Delivery logs of the organization to one recipient (through the dashboard API). */
export async function logsTo(base: string, tenant: ApiTenant, recipient: string): Promise<Array<{ id: string; recipient: string }>> {
  const page = await call(base, 'GET', '/delivery-logs?limit=100', undefined, tenant.jwt);
  return (page.body.data.items as Array<{ id: string; recipient: string }>).filter((l) => l.recipient === recipient);
}
