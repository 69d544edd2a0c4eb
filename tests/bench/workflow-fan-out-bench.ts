import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { NodeSecrets } from '../../adapters/security/node-secrets.ts';
import type { Contact } from '../../core/domain/contact.ts';
import { QUEUES } from '../../core/ports/job-queue.ts';
import { DEFAULT_FRAUD_LIMITS } from '../../core/use-cases/messaging/send-context.ts';
import { RunFanOut } from '../../core/use-cases/workflows/run-fan-out.ts';
import { StartFanOut } from '../../core/use-cases/workflows/start-fan-out.ts';
import { arg, setUpWorkflowBench, sleep } from './workflow-bench-setup.ts';

/**
 * `npm run bench:workflow-fanout -- --contacts=100000` (issue 31): a trigger to a topic of `contacts` contacts
 * (an event whose workflow is [delay 1 h, send]) fanned out by one worker process running only the
 * workflow-fan-out handler. Prints the time, the rate, and the worker's resident memory before and at its peak
 * (VmRSS, VmHWM from /proc): the fan-out holds one page (500 contacts), never the audience. Checks one run per contact.
 * With `--heap=96` the worker's V8 heap is bounded: the fan-out still completes (a growing RSS without the bound is
 * the garbage collector's choice to grow the heap, not data kept). Then a second fan-out of the same audience runs in
 * this process, 10 pages per job run, and prints the V8 heap after a full garbage collection after every job run:
 * flat from the first to the last page.
 */
const CONTACTS = arg('contacts', 100_000);
/** The worker's V8 heap bound in MB (0: Node's default): a fan-out that held its audience would run out of it. */
const HEAP = arg('heap', 0);
const b = await setUpWorkflowBench([{ type: 'delay', seconds: 3600 }, { type: 'send' }], 'Hi {{firstName}}', ['firstName']);
const memory = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
};
let code = 0;
try {
  let t = performance.now();
  const now = new Date();
  for (let from = 0; from < CONTACTS; from += 5_000) {
    const page: Contact[] = Array.from({ length: Math.min(5_000, CONTACTS - from) }, (_, i) => ({
      id: b.ids.next(), organizationId: b.organizationId, firstName: `P${from + i}`, lastName: null, phone: `+23320${String(from + i).padStart(7, '0')}`, email: null,
      countryCode: 'GH', tags: ['bench-fan-out'], fcmToken: null, attributes: {}, optedOutAt: null, createdAt: now, updatedAt: now,
    }));
    await b.storage.contacts.insertMany(page);
  }
  console.log(`stored ${CONTACTS.toLocaleString('en')} contacts in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const worker = await b.startWorker(2, QUEUES.workflowFanOut, HEAP || undefined);
  await sleep(1_000);
  const before = memory(worker.pid!);
  t = performance.now();
  const start = new StartFanOut({ storage: b.storage, clock: b.clock, ids: b.ids, secrets: new NodeSecrets() });
  const { fanOut } = await start.execute({ organizationId: b.organizationId, userId: null, apiKeyId: null, isSandbox: false }, { event: b.slug, topic: 'bench-fan-out' });
  let peak = before.peak;
  for (;;) {
    await sleep(500);
    peak = Math.max(peak, memory(worker.pid!).peak);
    const state = await b.storage.workflows.findFanOut(b.organizationId, String(fanOut['id']));
    if (state?.status !== 'RUNNING') {
      const seconds = (performance.now() - t) / 1000;
      console.log(`fan-out ${state?.status}: ${state?.started.toLocaleString('en')} runs started, ${state?.skipped} skipped in ${seconds.toFixed(1)} s (${Math.round((state?.started ?? 0) / seconds).toLocaleString('en')} runs/s)`);
      break;
    }
    if ((performance.now() - t) > 900_000) { console.log('not done in 900 s'); code = 1; break; }
  }
  console.log(`worker resident memory${HEAP ? ` (V8 heap bounded to ${HEAP} MB)` : ''}: ${before.rss.toFixed(0)} MB before the fan-out, peak ${peak.toFixed(0)} MB (+${(peak - before.peak).toFixed(0)} MB for ${CONTACTS.toLocaleString('en')} contacts)`);
  if (worker.exitCode !== null) { console.log(`the worker died (exit ${worker.exitCode})`); code = 3; }
  // The same audience again in this process (the worker stopped): the heap after a full GC, job run after job run (10 pages each).
  worker.send('stop');
  await Promise.race([once(worker, 'exit'), sleep(10_000)]);
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const secrets = new NodeSecrets();
  const second = await start.execute({ organizationId: b.organizationId, userId: null, apiKeyId: null, isSandbox: false }, { event: b.slug, topic: 'bench-fan-out' });
  await b.database.em().execute(`delete from pgboss.job where name = ? and data->>'fanOutId' = ?`, [QUEUES.workflowFanOut, String(second.fanOut['id'])]); // run here, not by the worker
  const runner = new RunFanOut({ storage: b.storage, clock: b.clock, ids: b.ids, secrets, pricing: b.storage.pricing, fraud: DEFAULT_FRAUD_LIMITS, maxBatchesPerRun: 10 });
  const heaps: number[] = [];
  for (let state = null as Awaited<ReturnType<RunFanOut['execute']>>; state?.status !== 'COMPLETED';) {
    state = await runner.execute({ fanOutId: String(second.fanOut['id']), organizationId: b.organizationId });
    gc();
    heaps.push(process.memoryUsage().heapUsed / 1_048_576);
  }
  console.log(`in-process fan-out of the same ${CONTACTS.toLocaleString('en')} contacts: V8 heap after GC ${heaps[0]!.toFixed(0)} MB after the first 5,000 contacts, `
    + `max ${Math.max(...heaps).toFixed(0)} MB, ${heaps[heaps.length - 1]!.toFixed(0)} MB at the end (${heaps.length} job runs)`);
  const runs = await b.count(`select count(*) as n from workflow_runs where organization_id = ?`);
  const distinct = await b.count(`select count(distinct request->>'contactId') as n from workflow_runs where organization_id = ?`);
  const perFanOut = await b.count(`select count(*) as n from (select 1 from event_fan_out_recipients where organization_id = ? group by fan_out_id, contact_id having count(*) > 1) d`);
  if (perFanOut !== 0) { console.log(`${perFanOut} contacts recorded twice in one fan-out`); code = 2; }
  console.log(`runs: ${runs.toLocaleString('en')} for ${distinct.toLocaleString('en')} distinct contacts (expected ${(2 * CONTACTS).toLocaleString('en')} for ${CONTACTS.toLocaleString('en')}: two fan-outs)`);
  if (runs !== 2 * CONTACTS || distinct !== CONTACTS) code = 2;
} finally {
  await b.close();
}
process.exit(code);
