import { fork } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface FakeVendor { url: string; stats(): Promise<{ accepted: number; maxInFlight: number; maxPerSecond: number }>; close(): Promise<void> }

/** Arkesel's send endpoint in a child process (slow-vendor-process.ts), answering every send after `latencyMs`. */
export async function startSlowArkesel(latencyMs: number): Promise<FakeVendor> {
  const child = fork(fileURLToPath(new URL('./slow-vendor-process.ts', import.meta.url)), [String(latencyMs)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ask = <T>(type: string) => new Promise<T>((resolve) => {
    const listener = (message: { type: string }) => { if (message.type === type) { child.off('message', listener); resolve(message as T); } };
    child.on('message', listener);
  });
  const { port } = await ask<{ port: number }>('listening');
  return {
    url: `http://127.0.0.1:${port}`,
    async stats() { const answer = ask<{ accepted: number; maxInFlight: number; maxPerSecond: number }>('stats'); child.send({ type: 'stats' }); return answer; },
    close: () => new Promise<void>((resolve) => { child.once('exit', () => resolve()); child.send({ type: 'stop' }); }),
  };
}

/** A PROVIDERS_FILE with one platform Arkesel provider for every country, sending to `vendorUrl` with the given bounds. */
export async function writeArkeselProvidersFile(file: string, vendorUrl: string, bounds: { maxConcurrency: number; maxPerSecond: number }): Promise<void> {
  await writeFile(file, JSON.stringify({ providers: [{
    name: 'bench-arkesel', vendor: 'arkesel-sms', channel: 'SMS', priority: 1, countries: ['*'],
    settings: { senderId: 'NKRA', baseUrl: vendorUrl, maxConcurrency: String(bounds.maxConcurrency), maxPerSecond: String(bounds.maxPerSecond) },
    credentials: { apiKey: 'bench-arkesel-key' },
  }] }));
}

/**
 * With `latencyMs` > 0: a slow Arkesel in its own process and a PROVIDERS_FILE (in `dir`) routing every SMS to it
 * through the platform's Arkesel provider bounded to `maxConcurrency` sends in flight, set for the service about
 * to start; null (the default providers) otherwise.
 */
export async function useSlowArkesel(latencyMs: number, maxConcurrency: number, dir: string): Promise<FakeVendor | null> {
  if (latencyMs <= 0) return null;
  const vendor = await startSlowArkesel(latencyMs);
  const providersFile = path.join(dir, 'providers.json');
  await writeArkeselProvidersFile(providersFile, vendor.url, { maxConcurrency, maxPerSecond: 0 });
  process.env['PROVIDERS_FILE'] = providersFile;
  return vendor;
}
