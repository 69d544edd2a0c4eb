import net from 'node:net';
import { timed } from '../../core/use-cases/system/check-health.ts';
import type { DependencyProbe, ProbeResult } from '../../core/ports/dependency-probe.ts';

/**
 * PINGs the Redis cache over RESP (AUTH first when the URL carries a password). Without REDIS_URL it
 * reports "not configured", which never degrades health.
 */
export class RedisProbe implements DependencyProbe {
  readonly #url: URL | null;
  readonly #timeoutMs: number;
  constructor(redisUrl: string | undefined, timeoutMs = 1_000) {
    this.#url = redisUrl ? new URL(redisUrl) : null;
    this.#timeoutMs = timeoutMs;
  }

  check(): Promise<ProbeResult> {
    const url = this.#url;
    if (!url) return Promise.resolve({ status: 'ok', message: 'not configured (REDIS_URL unset); cache disabled', latencyMs: 0, configured: false });
    return timed(true, () => ping(url, this.#timeoutMs));
  }
}

function ping(url: URL, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port || 6379) });
    socket.setTimeout(timeoutMs, () => { socket.destroy(); reject(new Error(`redis ping timed out after ${timeoutMs} ms`)); });
    socket.on('error', (error) => reject(new Error(`redis unreachable: ${error.message}`)));
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('utf8');
      if (received.includes('+PONG')) { socket.end(); resolve('redis reachable'); }
      else if (received.startsWith('-')) { socket.destroy(); reject(new Error(`redis refused: ${received.split('\r\n')[0]?.slice(1) ?? ''}`)); }
    });
    socket.on('connect', () => {
      const password = decodeURIComponent(url.password);
      const user = decodeURIComponent(url.username);
      const auth = password ? (user ? command('AUTH', user, password) : command('AUTH', password)) : '';
      socket.write(`${auth}${command('PING')}`);
    });
  });
}

function command(...parts: string[]): string {
  return `*${parts.length}\r\n${parts.map((p) => `$${Buffer.byteLength(p)}\r\n${p}\r\n`).join('')}`;
}
