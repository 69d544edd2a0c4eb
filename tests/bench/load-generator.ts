import http from 'node:http';

/**
 * The load generator, run in its own process (forked by http-bench.ts) so it does not share a CPU
 * core's event loop with the server it measures. Keeps `connections` keep-alive connections busy,
 * each sending the next request as soon as the previous answer has arrived (closed loop).
 */
export interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
}

export interface LoadResult {
  requests: number;
  non2xx: number;
  errors: number;
  seconds: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  /** This process's CPU time over the measured window, as a share of one core. */
  clientCpu: number;
}

export type LoadMessage = { type: 'measuring' } | { type: 'result'; result: LoadResult };

async function run(options: LoadOptions, onMeasuring: () => void): Promise<LoadResult> {
  const target = new URL(options.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections, maxFreeSockets: options.connections });
  const request = () => new Promise<number>((resolve, reject) => {
    const req = http.request({ agent, host: target.hostname, port: target.port, path: target.pathname, method: 'GET', headers: options.headers }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });

  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let measuring = false;
  const measureFrom = performance.now() + options.warmupSeconds * 1000;
  const stopAt = measureFrom + options.durationSeconds * 1000;
  let cpuAtStart = process.cpuUsage();

  const worker = async () => {
    for (;;) {
      const started = performance.now();
      if (started >= stopAt) return;
      if (!measuring && started >= measureFrom) {
        measuring = true;
        cpuAtStart = process.cpuUsage();
        onMeasuring();
      }
      const counted = measuring;
      try {
        const status = await request();
        if (!counted) continue;
        latencies.push(performance.now() - started);
        if (status < 200 || status > 299) non2xx += 1;
      } catch {
        if (counted) errors += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: options.connections }, worker));
  const cpu = process.cpuUsage(cpuAtStart);
  agent.destroy();

  latencies.sort((a, b) => a - b);
  const at = (q: number) => round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN);
  return {
    requests: latencies.length, non2xx, errors, seconds: options.durationSeconds,
    requestsPerSecond: Math.round(latencies.length / options.durationSeconds),
    latencyMs: { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: round(latencies.at(-1) ?? NaN) },
    clientCpu: round((cpu.user + cpu.system) / 1e6 / options.durationSeconds),
  };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

if (process.send) {
  const send = (message: LoadMessage) => process.send!(message);
  process.once('message', (options: LoadOptions) => {
    run(options, () => send({ type: 'measuring' }))
      .then((result) => { send({ type: 'result', result }); process.disconnect(); })
      .catch((error: unknown) => { console.error(error); process.exit(1); });
  });
}
