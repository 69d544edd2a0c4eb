import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { INFRA } from '../../hosts/tokens.ts';
import type { SendServer } from './send-server.ts';

/**
 * What the delivery-fairness benches share (bench:fairness, bench:fair-share, bench:vendors): live API keys
 * of funded tenants made the way a dashboard makes them, async sends, and accept-to-provider latencies.
 */

/** Registers a tenant, funds its wallet and creates a live key through a login and POST /api-keys, as the dashboard does. */
export async function liveKey(server: SendServer, label: string): Promise<{ key: string; organizationId: string }> {
  const sandbox = await server.newSandboxKey(label);
  const storage = server.container.get(INFRA.storage);
  await storage.wallets.update(sandbox.organizationId, () => ({ amount: 100_000_000, kind: 'TOP_UP', reference: `bench-${randomUUID()}`, description: 'bench top-up' }), new Date());
  const [owner] = await server.infra.database.em().execute<{ email: string }[]>(
    'select u.email from users u join memberships m on m.user_id = u.id where m.organization_id = ? limit 1', [sandbox.organizationId]);
  const login = await fetch(`${server.base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: owner!.email, password: 'bench-passphrase-123' }) });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  const created = await fetch(`${server.base}/api-keys`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-organization-id': sandbox.organizationId },
    body: JSON.stringify({ name: 'bench live', isSandbox: false, scopes: ['messages:send', 'messages:read'] }),
  });
  if (created.status !== 201) throw new Error(`live key: ${created.status} ${await created.text()}`);
  return { key: ((await created.json()) as { data: { key: string } }).data.key, organizationId: sandbox.organizationId };
}

let recipient = 2_000_000;
export const nextRecipient = () => `+23324${String(recipient++).padStart(7, '0')}`;

/** One async SMS through POST /messages/send with an idempotency key, as the client libraries send one; answers its id. */
export async function sendOne(server: SendServer, key: string, category: 'TRANSACTIONAL' | 'OTP', traceparent?: string): Promise<string> {
  const res = await fetch(`${server.base}/messages/send`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key, ...(traceparent ? { traceparent } : {}) },
    body: JSON.stringify({ channel: 'SMS', to: nextRecipient(), body: category === 'OTP' ? 'Your code is 246810' : 'Your parcel is on its way', category, async: true, idempotencyKey: randomUUID() }) });
  if (res.status !== 202) throw new Error(`send answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { data: { id: string } }).data.id;
}

/** Milliseconds from acceptance to the provider's answer of each message, once every one is SENT (or the deadline passes). */
export async function latencies(server: SendServer, ids: readonly string[], timeoutMs = 600_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await server.infra.database.em().execute<{ ms: string | number | null }[]>(
      'select extract(epoch from (sent_at - created_at)) * 1000 as ms from messages where id = any(?::text[])', [`{${ids.join(',')}}`]);
    if (rows.every((r) => r.ms !== null) || Date.now() > deadline) return rows.flatMap((r) => (r.ms === null ? [] : [Number(r.ms)]));
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export const pct = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
export const fmtMs = (v: number) => (Number.isNaN(v) ? 'n/a' : `${Math.round(v)} ms`);

/** Queues `total` async SMS of one tenant through POST /messages/bulk, 100 a request, 8 requests in flight, each message with an idempotency key. */
export async function queueBacklog(server: SendServer, key: string, total: number, body = 'Bulk backlog'): Promise<void> {
  let next = 0;
  const enqueue = async () => {
    while (next < total) {
      const from = next; next = Math.min(total, next + 100);
      const messages = Array.from({ length: next - from }, () => ({ channel: 'SMS', to: nextRecipient(), body, idempotencyKey: randomUUID() }));
      const res = await fetch(`${server.base}/messages/bulk`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify({ async: true, messages }) });
      if (res.status !== 202) throw new Error(`bulk answered ${res.status}: ${await res.text()}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, enqueue));
}

/** CPU seconds spent so far by this process and by every PostgreSQL process on the machine, the exited ones included (Linux /proc; 0 where unreadable). */
export async function cpuSeconds(): Promise<{ node: number; postgres: number }> {
  const usage = process.cpuUsage();
  let ticks = 0;
  for (const pid of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(pid)) continue;
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    const close = stat.lastIndexOf(')');
    if (close < 0 || !stat.slice(stat.indexOf('(') + 1, close).startsWith('postgres')) continue;
    // From field 3 (state) on: utime is field 14, stime 15, cutime 16, cstime 17. The postmaster's cutime and cstime
    // hold the CPU of the backends it has reaped: a connection closed during a phase still counts.
    const fields = stat.slice(close + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  }
  return { node: (usage.user + usage.system) / 1e6, postgres: ticks / 100 };
}
