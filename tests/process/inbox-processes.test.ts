import { createHmac } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { SseClient } from '../support/sse-client.ts';
import { dedicatedDatabase, freePort, startProcess, until, untilHealthy, type StartedProcess } from '../support/processes.ts';

/**
 * `npm run api` and `npm run worker` as separate processes on one PostgreSQL: an async IN_APP send is
 * delivered by the worker process, and its item reaches a browser stream held by the API process
 * (PostgreSQL LISTEN/NOTIFY between the processes). The inbox secret is in no line either process logged.
 */
describe('process: an IN_APP item stored by the worker process reaches a stream on the API process (PostgreSQL)', function () {
  this.timeout(150_000);
  let database: Awaited<ReturnType<typeof dedicatedDatabase>> = null;

  before(async function () {
    database = await dedicatedDatabase(`nkra_inbox_${process.pid}`);
    if (!database) this.skip();
  });
  after(async () => { await database?.drop(); });

  it('pushes the worker\'s delivery to the API\'s stream', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'nkra-inbox-processes-'));
    const port = await freePort();
    const env = { DATABASE_URL: database!.url, DATA_DIR: dir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' };
    const api = startProcess('hosts/api/main.ts', env);
    let worker: StartedProcess | null = null;
    let stream: SseClient | null = null;
    try {
      await untilHealthy(api, port, 90_000);
      worker = startProcess('hosts/worker/main.ts', env);
      await until(() => worker!.output().includes('worker started'), 90_000, 'the worker to start');
      const base = `http://127.0.0.1:${port}`;
      const call = async (route: string, body: unknown, headers: Record<string, string> = {}) => {
        const res = await fetch(`${base}${route}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
        return { status: res.status, body: await res.json() as { data: any } };
      };
      const registered = (await call('/auth/register', { email: `inbox-${port}@example.com`, password: 'a-good-passphrase', firstName: 'A', lastName: 'B', organizationName: 'Bell Ltd' })).body.data;
      const auth = { authorization: `Bearer ${registered.token}`, 'x-organization-id': registered.organizations[0].id };
      const { appId, secret } = (await call('/inbox/settings/secret', {}, auth)).body.data as { appId: string; secret: string };
      const hash = createHmac('sha256', secret).update('proc-user').digest('hex');
      stream = await SseClient.open(`${base}/inbox/v1/stream?appId=${appId}&subscriberId=proc-user&subscriberHash=${hash}`);
      expect(stream.status).to.equal(200);
      await stream.waitFor((e) => e.event === 'counts');
      const sent = await call('/messages/send', { channel: 'IN_APP', to: 'proc-user', body: 'delivered by the worker', async: true }, auth);
      expect(sent.status).to.equal(202);
      expect(sent.body.data.status).to.equal('QUEUED');
      const item = JSON.parse((await stream.waitFor((e) => e.event === 'item', 30_000)).data);
      expect(item).to.deep.include({ body: 'delivered by the worker', messageId: sent.body.data.id });
      expect(api.output() + worker.output()).not.to.include(secret);
      expect(api.output()).not.to.include(hash);
    } finally {
      stream?.close();
      api.child.kill('SIGTERM');
      worker?.child.kill('SIGTERM');
      await Promise.all([api.exited, worker?.exited]);
    }
  });
});
