import net from 'node:net';
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/** A TCP port with nothing listening (bound, then released). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A minimal RESP server answering PING with +PONG: a real TCP peer for the Redis check. */
async function fakeRedis(): Promise<{ url: string; close(): Promise<void> }> {
  const server = net.createServer((socket) => socket.on('data', (d) => { if (d.toString().includes('PING')) socket.write('+PONG\r\n'); }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return { url: `redis://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('HTTP: GET /health and GET /metrics', () => {
  let app: TestApp;
  before(async () => { app = await startTestApp(); });
  after(async () => { await app.close(); });

  it('reports ok with the spec body when the database and queue answer and Redis is not configured', async () => {
    const res = await app.api.get('/health');
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ status: 'ok', service: 'nkra' });
    expect(new Date(res.body.timestamp).toString()).to.not.equal('Invalid Date');
    expect(res.body.dependencies.redis).to.have.keys('status', 'latencyMs', 'message');
    expect(res.body.dependencies.redis.message).to.match(/not configured/);
    expect(res.body.dependencies.database.status).to.equal('ok');
    expect(res.body.dependencies.workers.status).to.equal('ok');
    expect(res.body.dependencies.workers.notificationSend).to.have.all.keys('waiting', 'active', 'completed', 'failed', 'workers');
    for (const value of Object.values(res.body.dependencies.workers.notificationSend)) expect(value).to.be.a('number');
  });

  it('checks a configured Redis for real: ok while it answers, 503 degraded (same body shape) once it is gone', async () => {
    const redis = await fakeRedis();
    const withRedis = await startTestApp({ config: { redisUrl: redis.url } });
    try {
      const up = await withRedis.api.get('/health');
      expect(up.status).to.equal(200);
      expect(up.body.dependencies.redis).to.include({ status: 'ok', message: 'redis reachable' });
      await redis.close();
      const down = await withRedis.api.get('/health');
      expect(down.status).to.equal(503);
      expect(down.body.status).to.equal('degraded');
      expect(down.body.dependencies.redis.status).to.equal('degraded');
      expect(Object.keys(down.body)).to.deep.equal(Object.keys(up.body));
    } finally {
      await withRedis.close();
    }
  });

  it('reports 503 when Redis is configured on a port where nothing listens', async () => {
    const dead = await startTestApp({ config: { redisUrl: `redis://127.0.0.1:${await closedPort()}` } });
    try {
      const res = await dead.api.get('/health');
      expect(res.status).to.equal(503);
      expect(res.body.dependencies.redis.status).to.equal('degraded');
      expect(res.body.dependencies.database.status).to.equal('ok');
    } finally {
      await dead.close();
    }
  });

  it('serves Prometheus metrics with request counts by route and status', async () => {
    await app.api.get('/health');
    const res = await app.api.get('/metrics');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/text\/plain/);
    expect(res.text).to.match(/nkra_http_requests_total\{method="GET",route="\/health",status="200"\} \d+/);
    expect(res.text).to.include('nkra_http_request_duration_seconds_bucket');
    expect(res.text).to.match(/nkra_queue_jobs\{queue="notification-send",state="waiting"\} \d+/);
    for (const family of ['nkra_provider_requests_total', 'nkra_provider_request_duration_seconds', 'nkra_provider_in_flight', 'nkra_provider_circuit_state']) {
      expect(res.text).to.include(`# TYPE ${family}`);
    }
  });

  it('protects /metrics with METRICS_TOKEN when one is configured', async () => {
    const secured = await startTestApp({ config: { metricsToken: 'metrics-token-0123456789' } });
    try {
      expect((await secured.api.get('/metrics')).status).to.equal(401);
      expect((await secured.api.get('/metrics', { token: 'wrong-token-0123456789' })).status).to.equal(401);
      expect((await secured.api.get('/metrics', { token: 'metrics-token-0123456789' })).status).to.equal(200);
    } finally {
      await secured.close();
    }
  });

  it('closes /metrics in production without METRICS_TOKEN (404), and opens it with the token', async () => {
    const production = await startTestApp({ config: { nodeEnv: 'production' } });
    const withToken = await startTestApp({ config: { nodeEnv: 'production', metricsToken: 'metrics-token-0123456789' } });
    try {
      const closed = await production.api.get('/metrics');
      expect(closed.status).to.equal(404);
      expect(closed.body.error.code).to.equal('NOT_FOUND');
      expect((await withToken.api.get('/metrics', { token: 'metrics-token-0123456789' })).status).to.equal(200);
    } finally {
      await production.close();
      await withToken.close();
    }
  });

  it('sends nosniff and no-referrer on every answer, and HSTS only when PUBLIC_URL is https', async () => {
    const plain = await app.api.get('/health');
    expect(plain.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(plain.headers.get('referrer-policy')).to.equal('no-referrer');
    expect(plain.headers.get('strict-transport-security')).to.equal(null);
    const error = await app.api.get('/no-such-route');
    expect(error.headers.get('x-content-type-options')).to.equal('nosniff');
    const https = await startTestApp({ config: { publicUrl: 'https://nkra.example.com' } });
    try {
      expect((await https.api.get('/health')).headers.get('strict-transport-security')).to.equal('max-age=31536000; includeSubDomains');
    } finally {
      await https.close();
    }
  });
});
