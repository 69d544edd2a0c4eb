import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake Arkesel v2 send endpoint in its own process (a vendor is another machine; its CPU is not
 * the worker's): answers every send after `latencyMs`, counts requests in flight and per second, and
 * reports them to the parent over IPC. Started by vendor-drain-bench.ts.
 */
const latencyMs = Number(process.argv[2] ?? 50);
const state = { accepted: 0, inFlight: 0, maxInFlight: 0, second: 0, inSecond: 0, maxPerSecond: 0 };
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    if (req.method !== 'POST') { // the provider health check (balance) of a worker process that runs its schedules
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'success', data: { main_balance: 100, sms_balance: 1000 } }));
      return;
    }
    const second = Math.floor(Date.now() / 1000);
    if (second !== state.second) { state.second = second; state.inSecond = 0; }
    state.inSecond += 1; state.maxPerSecond = Math.max(state.maxPerSecond, state.inSecond);
    state.inFlight += 1; state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { recipients: string[] };
    setTimeout(() => {
      state.inFlight -= 1; state.accepted += 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'success', data: body.recipients.map((recipient) => ({ recipient, id: randomUUID() })) }));
    }, latencyMs);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send?.({ type: 'listening', port: (server.address() as AddressInfo).port }));
process.on('message', (message: { type: string }) => {
  if (message.type === 'stats') process.send?.({ type: 'stats', accepted: state.accepted, maxInFlight: state.maxInFlight, maxPerSecond: state.maxPerSecond });
  if (message.type === 'stop') { server.closeAllConnections(); server.close(() => process.exit(0)); }
});
