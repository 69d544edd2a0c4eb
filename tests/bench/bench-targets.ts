import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Koa from 'koa';
import { buildApiContainer, buildApp } from '../../hosts/api/container.ts';
import { ok, requireTenant, type RouteDefinition } from '../../hosts/api/route.ts';
import { listen } from '../../hosts/api/server.ts';
import { loadConfig } from '../../hosts/config.ts';
import { openInfrastructure } from '../../hosts/infrastructure.ts';
import { createLogger } from '../../hosts/logger.ts';
import { INFRA } from '../../hosts/tokens.ts';
import type { Storage } from '../../core/ports/storage.ts';

/** A server under test: where to send load, with which headers, and what it did meanwhile. */
export interface BenchTarget {
  label: string;
  url: string;
  headers: Record<string, string>;
  /** Facts checked after the run (database lookups, password hashing ...). */
  counters(): Record<string, number>;
  close(): Promise<void>;
}

/** The reference: Koa 3 answering "Hello, World!" with no middleware. */
export async function startBareKoa(): Promise<BenchTarget> {
  const app = new Koa();
  app.use((ctx) => { ctx.body = 'Hello, World!'; });
  const server = http.createServer(app.callback());
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    label: 'bare Koa 3 hello-world', url: `http://127.0.0.1:${port}/`, headers: {}, counters: () => ({}),
    close: () => new Promise<void>((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }),
  };
}

/** The trivial API-key route measured on the real app. */
const WHOAMI: RouteDefinition = {
  method: 'GET', path: '/bench/whoami', tag: 'Bench', summary: 'The caller\'s organization (benchmark only)',
  auth: 'tenant-or-api-key', permission: 'messages:read', apiKeyScope: 'messages:read', responses: { 200: 'The organization id' },
  handler: async (input) => ok({ organizationId: requireTenant(input).organizationId }),
};

/**
 * The real API (buildApiContainer + buildApp, real adapters) on the embedded PGlite, or on PostgreSQL
 * when DATABASE_URL is set, called with a valid X-API-Key. Counts API-key repository reads and
 * password hashing so the run can show the key path stays off the database and off argon2.
 */
export async function startRealApp(): Promise<BenchTarget> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'nkra-bench-'));
  const config = await loadConfig({
    ...process.env, NODE_ENV: 'development', DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0',
    LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'warn',
  });
  const logger = createLogger(config.logLevel);
  const infra = await openInfrastructure(config, logger, { superviseQueue: false, pgliteDir: null });
  const container = buildApiContainer(config, logger, infra);
  const counts = { apiKeyDatabaseReads: 0, passwordHashes: 0 };
  countApiKeyReads(container.get(INFRA.storage), () => { counts.apiKeyDatabaseReads += 1; });
  const passwords = container.get(INFRA.passwords);
  const { hash, verify } = passwords;
  passwords.hash = (...args) => { counts.passwordHashes += 1; return hash.apply(passwords, args); };
  passwords.verify = (...args) => { counts.passwordHashes += 1; return verify.apply(passwords, args); };

  const server = await listen(buildApp(container, [WHOAMI]), 0, '127.0.0.1', logger);
  const base = `http://127.0.0.1:${server.port}`;
  const apiKey = await createBenchApiKey(base);
  const check = await fetch(`${base}/bench/whoami`, { headers: { 'x-api-key': apiKey } });
  if (check.status !== 200) throw new Error(`the bench route answered ${check.status}: ${await check.text()}`);
  const before = { ...counts };
  return {
    label: `Nkra API, X-API-Key, ${infra.database.kind}`, url: `${base}/bench/whoami`, headers: { 'x-api-key': apiKey },
    counters: () => ({
      apiKeyDatabaseReads: counts.apiKeyDatabaseReads - before.apiKeyDatabaseReads,
      passwordHashes: counts.passwordHashes - before.passwordHashes,
    }),
    async close() {
      await server.close(1_000);
      await infra.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Registers a tenant and creates a key with the messages:read scope, over HTTP like a user would. */
async function createBenchApiKey(base: string): Promise<string> {
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const json = await res.json() as { success: boolean; data: any };
    if (!res.ok) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(json)}`);
    return json.data;
  };
  const email = `bench-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const registered = await post('/auth/register', { email, password: 'bench-passphrase-123', firstName: 'Bench', lastName: 'Mark', organizationName: 'Bench Org' });
  const auth = { authorization: `Bearer ${registered.token}`, 'x-organization-id': registered.organizations[0].id };
  const created = await post('/api-keys', { name: 'bench', scopes: ['messages:read'] }, auth);
  return created.key as string;
}

/** Wraps `storage.apiKeys.findByHash` (the read the API-key cache must spare) with a counter. */
function countApiKeyReads(storage: Storage, onRead: () => void): void {
  const getter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(storage), 'apiKeys')?.get;
  if (!getter) throw new Error('expected MikroOrmStorage, whose repositories are getters');
  const original = () => getter.call(storage) as Storage['apiKeys'];
  Object.defineProperty(storage, 'apiKeys', {
    configurable: true,
    get: () => {
      const repository = original();
      const findByHash = repository.findByHash.bind(repository);
      repository.findByHash = (keyHash) => { onRead(); return findByHash(keyHash); };
      return repository;
    },
  });
}
