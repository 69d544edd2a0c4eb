import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '../../adapters/postgres/database.ts';
import { availableDatabaseKinds, testDatabaseUrl } from './test-database.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** A TCP port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface StartedProcess { child: ChildProcess; output: () => string; exited: Promise<number | null> }

/** Starts `node <entry>` from the repository root with only PATH, HOME and `env`, collecting its output. */
export function startProcess(entry: string, env: Record<string, string>): StartedProcess {
  const child = spawn(process.execPath, [entry], { cwd: ROOT, env: { PATH: process.env['PATH'] ?? '', HOME: os.tmpdir(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => { output += String(d); });
  child.stderr!.on('data', (d) => { output += String(d); });
  return { child, output: () => output, exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))) };
}

/** Polls `check` every 100 ms until it holds; throws naming `what` after `timeoutMs`. */
export async function until(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until the API of a started process answers /health. */
export async function untilHealthy(started: StartedProcess, port: number, timeoutMs = 60_000): Promise<void> {
  await until(async () => {
    if (started.child.exitCode !== null) throw new Error(`the process exited:\n${started.output()}`);
    return fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(1_000) }).then((r) => r.status === 200, () => false);
  }, timeoutMs, 'the service to answer /health');
}

/**
 * A fresh, empty PostgreSQL database of its own on the test server (for tests whose processes would
 * otherwise work the shared test database's queue), or null without PostgreSQL. `drop()` removes it.
 */
export async function dedicatedDatabase(name: string): Promise<{ url: string; drop(): Promise<void> } | null> {
  const base = await testDatabaseUrl();
  if (!base) return null;
  const at = (database: string) => { const u = new URL(base); u.pathname = `/${database}`; return u.toString(); };
  const admin: Database = await openDatabase({ databaseUrl: at('postgres'), poolSize: 1 });
  await admin.em().execute(`drop database if exists ${name}`);
  await admin.em().execute(`create database ${name}`);
  return {
    url: at(name),
    async drop() {
      await admin.em().execute(`drop database if exists ${name} with (force)`).catch(() => undefined);
      await admin.close();
    },
  };
}

/** An empty database to migrate or fill: in-memory PGlite, or a dedicated PostgreSQL database `name`. */
export interface ScratchDatabase { db: Database; close(): Promise<void> }

/** A scratch database of `kind`, or null when that kind is not available here (no PostgreSQL). */
export async function scratchDatabase(kind: 'pglite' | 'postgres', name: string, poolSize = 4): Promise<ScratchDatabase | null> {
  if (kind === 'pglite') {
    const db = await openDatabase({});
    return { db, close: () => db.close() };
  }
  if (!(await availableDatabaseKinds()).includes('postgres')) return null;
  const dedicated = await dedicatedDatabase(`${name}_${process.pid}`);
  if (!dedicated) return null;
  const db = await openDatabase({ databaseUrl: dedicated.url, poolSize });
  return { db, close: async () => { await db.close(); await dedicated.drop(); } };
}
