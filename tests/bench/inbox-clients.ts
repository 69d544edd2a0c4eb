import { createHmac } from 'node:crypto';
import net from 'node:net';

/**
 * The inbox benchmark's browsers (forked by inbox-bench.ts): N Server-Sent Events streams on raw
 * sockets, one subscriber each, counting `event: item` arrivals with their arrival time.
 */
interface Connect { cmd: 'connect'; host: string; port: number; appId: string; secret: string; count: number; prefix: string; parallel: number }
interface Collect { cmd: 'collect'; expect: number; timeoutMs: number }
type Command = Connect | Collect | { cmd: 'reset' } | { cmd: 'close' };

const sockets: net.Socket[] = [];
let arrivals: number[] = [];
let wake: (() => void) | null = null;

function open(c: Connect, i: number): Promise<boolean> {
  return new Promise((resolve) => {
    const subscriberId = `${c.prefix}-${i}`;
    const hash = createHmac('sha256', c.secret).update(subscriberId).digest('hex');
    const socket = net.connect({ host: c.host, port: c.port });
    let settled = false;
    let head = '';
    const done = (ok: boolean) => { if (!settled) { settled = true; resolve(ok); } };
    socket.setEncoding('utf8');
    socket.setTimeout(60_000, () => { socket.destroy(); done(false); });
    socket.on('connect', () => {
      socket.write(`GET /inbox/v1/stream?appId=${c.appId}&subscriberId=${subscriberId}&subscriberHash=${hash} HTTP/1.1\r\nHost: ${c.host}:${c.port}\r\nAccept: text/event-stream\r\n\r\n`);
    });
    socket.on('data', (chunk: string) => {
      if (!settled) {
        head += chunk;
        if (head.includes('event: counts')) { socket.setTimeout(0); sockets.push(socket); done(head.startsWith('HTTP/1.1 200')); }
        else if (head.includes('\r\n\r\n') && !head.startsWith('HTTP/1.1 200')) { socket.destroy(); done(false); }
        return;
      }
      // One arrival per item event (an item is one write, so it never straddles chunks in practice; count occurrences to be safe).
      let from = 0;
      while ((from = chunk.indexOf('event: item', from)) >= 0) { arrivals.push(Date.now()); from += 11; }
      if (wake) wake();
    });
    socket.on('error', () => done(false));
    socket.on('close', () => done(false));
  });
}

process.on('message', async (raw: Command) => {
  if (raw.cmd === 'connect') {
    let ok = 0; let failed = 0; let next = 0;
    const worker = async () => { while (next < raw.count) { const i = next++; if (await open(raw, i)) ok += 1; else failed += 1; } };
    await Promise.all(Array.from({ length: raw.parallel }, worker));
    process.send!({ connected: ok, failed });
  } else if (raw.cmd === 'reset') {
    arrivals = [];
    process.send!({ reset: true });
  } else if (raw.cmd === 'collect') {
    const deadline = Date.now() + raw.timeoutMs;
    while (arrivals.length < raw.expect && Date.now() < deadline) await new Promise<void>((resolve) => { wake = resolve; setTimeout(resolve, 100); });
    wake = null;
    process.send!({ arrivals: arrivals.splice(0) });
  } else {
    for (const s of sockets) s.destroy();
    process.send!({ closed: true });
    process.exit(0);
  }
});
process.send!({ ready: true });
