import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { freePort, startProcess, until, untilHealthy, type StartedProcess } from '../support/processes.ts';

interface OtlpAttribute { key: string; value: { stringValue?: string } }
interface OtlpSpan { traceId: string; spanId: string; parentSpanId?: string; name: string; attributes?: OtlpAttribute[] }
interface OtlpExport { resourceSpans: Array<{ resource: { attributes: OtlpAttribute[] }; scopeSpans: Array<{ spans: OtlpSpan[] }> }> }

/**
 * `npm start` with the standard OTEL_* variables exports its spans over OTLP/HTTP (docs/observability.md):
 * a tiny local OTLP receiver gets the request's span, in the caller's trace, with the configured resource.
 * The embedded PGlite in a temporary DATA_DIR: no other service needed.
 */
describe('process: OTLP export configured by OTEL_* variables', function () {
  this.timeout(120_000);
  const exports: Array<{ path: string; contentType: string; body: OtlpExport }> = [];
  let receiver: http.Server;
  let service: StartedProcess | null = null;
  let dir: string;

  before(async () => {
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        exports.push({ path: req.url ?? '', contentType: String(req.headers['content-type']), body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    dir = await mkdtemp(path.join(os.tmpdir(), 'nkra-otlp-'));
  });

  after(async () => {
    if (service && service.child.exitCode === null) service.child.kill('SIGKILL');
    await new Promise<void>((resolve) => { receiver.closeAllConnections(); receiver.close(() => resolve()); });
    await rm(dir, { recursive: true, force: true });
  });

  const spans = () => exports.flatMap((e) => e.body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans.map((span) => ({ span, resource: r.resource })))));
  const attribute = (attributes: OtlpAttribute[] | undefined, key: string) => attributes?.find((a) => a.key === key)?.value.stringValue;

  it('sends the request spans of the caller\'s trace to OTEL_EXPORTER_OTLP_ENDPOINT with OTEL_SERVICE_NAME, and still exports the last span when stopped', async () => {
    const port = await freePort();
    service = startProcess('hosts/main.ts', {
      DATA_DIR: dir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info',
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
      OTEL_SERVICE_NAME: 'nkra-otlp-test', OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=ci', OTEL_BSP_SCHEDULE_DELAY: '200',
    });
    await untilHealthy(service, port, 100_000);
    expect(service.output()).to.include('tracing on');
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const answer = await fetch(`http://127.0.0.1:${port}/health`, { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
    expect(answer.status).to.equal(200);
    await until(() => spans().some(({ span }) => span.traceId === traceId), 15_000, 'the /health span at the OTLP receiver');

    const { span, resource } = spans().find(({ span: s }) => s.traceId === traceId)!;
    expect(span.name).to.equal('GET /health');
    expect(span.parentSpanId).to.equal('00f067aa0ba902b7');
    expect(attribute(resource.attributes, 'service.name')).to.equal('nkra-otlp-test');
    expect(attribute(resource.attributes, 'deployment.environment.name')).to.equal('ci');
    expect(exports.every((e) => e.path === '/v1/traces' && e.contentType.startsWith('application/json'))).to.equal(true);

    // A span ended just before SIGTERM is exported too: shutdown flushes the batch processor.
    const last = '0af7651916cd43dd8448eb211c80319c';
    await fetch(`http://127.0.0.1:${port}/health`, { headers: { traceparent: `00-${last}-b7ad6b7169203331-01` } });
    service.child.kill('SIGTERM');
    expect(await service.exited).to.equal(0);
    expect(spans().some(({ span: s }) => s.traceId === last)).to.equal(true);
  });
});
