import { arg, setUpWorkflowBench, sleep } from './workflow-bench-setup.ts';

/**
 * `npm run bench:workflow-digest` (issue 31's size: `--triggers=1000000 --recipients=100000 --window=60`): `triggers`
 * runs of a workflow [digest (window, no look-back), send] for `recipients` recipients (interleaved), all
 * queued before two worker processes start (workflow-worker.ts, workflow-step handler only). When the first
 * flushes begin, one worker is killed (SIGKILL) mid-flush; the other goes on, and the killed one's jobs come
 * back after pg-boss notices the missed heartbeat. Checks in the database: one digest message per recipient,
 * none twice (messages per recipient), every trigger in exactly one flushed bucket. Exits 1 otherwise.
 */
const TRIGGERS = arg('triggers', 1_000_000);
const RECIPIENTS = arg('recipients', 100_000);
const WINDOW = arg('window', 60);
/** Give up after (default: 10 minutes, plus a minute per 50,000 triggers beyond 100,000: 100,000 sends are one wallet's, one at a time). */
const LIMIT_SECONDS = arg('limit', 600 + Math.max(0, TRIGGERS - 100_000) / 50_000 * 60);
const b = await setUpWorkflowBench([{ type: 'digest', windowSeconds: WINDOW, itemVariable: 'order' }, { type: 'send' }],
  'Your {{digestCount}} order updates: {{digestItems}}', ['digestCount', 'digestItems']);
const org = b.organizationId;
const problems: string[] = [];
try {
  let t = performance.now();
  await b.insertRuns(TRIGGERS, RECIPIENTS, `jsonb_build_object('order', 'O' || g)`);
  await b.database.em().execute('analyze workflow_runs, workflow_step_runs, workflow_digest_buckets, workflow_digest_items'); // statistics, as production tables have them
  console.log(`queued ${TRIGGERS.toLocaleString('en')} runs for ${RECIPIENTS.toLocaleString('en')} recipients in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  t = performance.now();
  const a = await b.startWorker();
  await b.startWorker();
  const runs = (status: string) => b.count(`select count(*) as n from workflow_runs where organization_id = ? and status = '${status}'`);
  const messages = () => b.count('select count(*) as n from messages where organization_id = ?');
  let killedAt: number | null = null;
  for (;;) {
    await sleep(2_000);
    // One pass over the organization's runs per poll (the poll competes with the workers for the database).
    const [counts] = await b.database.em().execute<Array<{ waiting: string; running: string; completed: string }>>(`select count(*) filter (where status = 'WAITING') as waiting,
      count(*) filter (where status = 'RUNNING') as running, count(*) filter (where status = 'COMPLETED') as completed from workflow_runs where organization_id = ?`, [org]);
    const [waiting, running, completed, sent] = [Number(counts?.waiting ?? 0), Number(counts?.running ?? 0), Number(counts?.completed ?? 0), await messages()];
    const seconds = (performance.now() - t) / 1000;
    console.log(`${seconds.toFixed(0)} s: running ${running}, waiting ${waiting}, completed ${completed}, digest messages ${sent}`);
    if (killedAt === null && sent > 0) {
      a.kill('SIGKILL');
      killedAt = seconds;
      console.log(`killed worker ${a.pid} mid-flush (${sent} digests sent)`);
    }
    if (running === 0 && waiting === 0) break;
    if (seconds > LIMIT_SECONDS) { problems.push(`not done in ${LIMIT_SECONDS} s`); break; }
  }
  const joinEnd = await b.count(`select round(extract(epoch from max(s.finished_at) - min(s.started_at))::numeric, 1) as n from workflow_step_runs s
    join workflow_runs r on r.id = s.run_id where r.organization_id = ? and s.step_index = 0 and s.outcome = 'DIGESTED'`);
  const total = await messages();
  const twice = await b.count('select count(*) as n from (select recipient from messages where organization_id = ? group by recipient having count(*) > 1) x');
  const inBuckets = await b.count(`select count(*) as n from workflow_digest_items i join workflow_digest_buckets d on d.id = i.bucket_id where d.organization_id = ? and d.status = 'FLUSHED'`);
  const flushed = await b.count(`select count(*) as n from workflow_digest_buckets where organization_id = ? and status = 'FLUSHED'`);
  const failed = await runs('FAILED');
  const joins = await b.count(`select count(*) as n from workflow_step_runs s join workflow_runs r on r.id = s.run_id where r.organization_id = ? and s.step_index = 0 and s.outcome = 'DIGESTED'`);
  console.log(`joins: ${joins.toLocaleString('en')} in ${joinEnd} s (${joinEnd > 0 ? Math.round(joins / joinEnd).toLocaleString('en') : '-'} joins/s)`);
  console.log(`done in ${((performance.now() - t) / 1000).toFixed(1)} s (joins spread over ${joinEnd} s): ${total} digest messages for ${RECIPIENTS} recipients, `
    + `${flushed} buckets flushed holding ${inBuckets} triggers, ${twice} recipients messaged twice, ${failed} runs failed`);
  if (total !== flushed) problems.push(`${total} messages for ${flushed} flushed buckets`);
  if (inBuckets !== TRIGGERS) problems.push(`${inBuckets} of ${TRIGGERS} triggers in flushed buckets`);
  if (joinEnd < WINDOW && total !== RECIPIENTS) problems.push(`${total} messages, expected ${RECIPIENTS}`);
  if (joinEnd < WINDOW && twice > 0) problems.push(`${twice} recipients messaged twice`);
  if (failed > 0) problems.push(`${failed} runs failed`);
} finally {
  await b.close();
}
if (problems.length) { console.error(`FAILED: ${problems.join('; ')}`); process.exit(1); }
console.log('OK');
process.exit(0);
