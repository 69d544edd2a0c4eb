import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';

/** What the counting vendor saw: sends received, in flight, first seen per recipient, and accepted per recipient. */
export interface CountingVendorState {
  received: number;
  inFlight: number;
  /** Digits of a recipient -> when a send to it first arrived (ms). */
  firstAt: Map<string, number>;
  /** Digits of a recipient -> how many of its sends were confirmed to a live connection. */
  accepted: Map<string, number>;
  /** While true, answers wait in `held` (a test releases them by setting it false and calling each). */
  holding: boolean;
  held: Array<() => void>;
  /** While true, every send answers 500 (a vendor outage: a transient failure); `failed` counts those answers. */
  failing: boolean;
  failed: number;
}

export interface CountingVendor {
  url: string;
  state: CountingVendorState;
  /** Answers from now on wait until `release`. */
  hold(): void;
  /** Sends the held answers and stops holding. */
  release(): void;
  /** Every send answers 500 from now on, until `recover`. */
  fail(): void;
  recover(): void;
  close(): Promise<void>;
}

/**
 * A fake Arkesel v2 for process tests that kill workers: it holds every send `holdMs` before answering,
 * and counts a send as accepted only when its answer reaches a live connection (a send whose worker was
 * killed meanwhile was never confirmed to anyone). Any GET (the balance health check) answers a balance.
 */
export function startCountingArkesel(holdMs: number): Promise<CountingVendor> {
  const state: CountingVendorState = { received: 0, inFlight: 0, firstAt: new Map(), accepted: new Map(), holding: false, held: [], failing: false, failed: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: 'success', data: { main_balance: 100, sms_balance: 1000 } }));
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { recipients: string[] };
      const digits = body.recipients.map((x) => x.replace(/\D/g, ''));
      state.received += 1;
      state.inFlight += 1;
      for (const r of digits) if (!state.firstAt.has(r)) state.firstAt.set(r, Date.now());
      const answer = () => {
        state.inFlight -= 1;
        if (req.socket.destroyed) return;
        if (state.failing) {
          state.failed += 1;
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ status: 'error', message: 'Internal server error' }));
          return;
        }
        for (const r of digits) state.accepted.set(r, (state.accepted.get(r) ?? 0) + 1);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: 'success', data: body.recipients.map((recipient) => ({ recipient, id: randomUUID() })) }));
      };
      setTimeout(() => (state.holding ? state.held.push(answer) : answer()), holdMs);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, state,
      hold: () => { state.holding = true; },
      release: () => { state.holding = false; state.held.splice(0).forEach((answer) => answer()); },
      fail: () => { state.failing = true; },
      recover: () => { state.failing = false; },
      close: () => new Promise((done) => { server.closeAllConnections(); server.close(() => done()); }),
    }));
  });
}

/** Writes `<dir>/providers.json` (PROVIDERS_FILE) with one Arkesel SMS provider pointed at `vendorUrl`; returns its path. */
export async function arkeselProvidersFile(dir: string, name: string, vendorUrl: string): Promise<string> {
  const file = path.join(dir, 'providers.json');
  await writeFile(file, JSON.stringify({ providers: [{
    name, vendor: 'arkesel-sms', channel: 'SMS', priority: 1, countries: ['*'],
    settings: { senderId: 'NKRA', baseUrl: vendorUrl }, credentials: { apiKey: `${name}-test-key` },
  }] }));
  return file;
}
