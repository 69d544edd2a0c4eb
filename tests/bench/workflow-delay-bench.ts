import { arg, setUpWorkflowBench, sleep } from './workflow-bench-setup.ts';

/**
 * `npm run bench:workflow-delay -- --runs=100000 --lead=30` (issue 31): `runs` workflow runs waiting in a
 * delay step [delay until the payload's `at`] all due at the same instant T (now + lead seconds), stored as
 * a delayed run is (run WAITING, its step row WAITING with resume_at T), with two worker processes running as
 * `npm run worker` runs them (their delay resumer claims due steps in chunks of 5,000; `batch`, default 50, is the
 * workflow-step queue's batch, used by `--jobs`). Prints how long after T the last run resumed (completed). Bar: within 10 s.
 */
const RUNS = arg('runs', 100_000);
const LEAD = arg('lead', 30);
const BATCH = arg('batch', 50);
const b = await setUpWorkflowBench([{ type: 'delay', untilVariable: 'at' }], 'unused {{at}}', ['at']);
let code = 0;
try {
  const due = new Date(Date.now() + LEAD * 1000);
  let t = performance.now();
  // Stored as the delay step stores them: run WAITING, its step row WAITING with resume_at T, no job (the
  // workers' delay resumer claims due steps set-wise). `--jobs` adds a job per run starting after T, as delays
  // stored before the resumer had (their batch path, resumeDueDelays, still works and runs beside the resumer).
  await b.insertRuns(RUNS, RUNS, `jsonb_build_object('at', '${due.toISOString()}')`, process.argv.includes('--jobs') ? { startAfter: due } : 'none');
  await b.database.em().execute(`update workflow_runs set status = 'WAITING' where organization_id = ?`, [b.organizationId]);
  await b.database.em().execute(`insert into workflow_step_runs (run_id, step_index, organization_id, type, status, outcome, resume_at, detail, started_at)
    select id, 0, organization_id, 'delay', 'WAITING', 'DELAYED', ?, '{}'::jsonb, now() from workflow_runs where organization_id = ?`, [due, b.organizationId]);
  await b.database.em().execute('analyze workflow_runs, workflow_step_runs'); // statistics, as a production table has them (a fresh table's plans are nested loops over seq scans)
  console.log(`stored ${RUNS.toLocaleString('en')} delayed runs due at ${due.toISOString()} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  await b.startWorker(BATCH);
  await b.startWorker(BATCH);
  const left = due.getTime() - Date.now();
  if (left < 0) console.log(`WARNING: set-up took longer than the lead (${-left} ms late); raise --lead`);
  await sleep(Math.max(0, left));
  t = performance.now();
  for (;;) {
    await sleep(500);
    const done = await b.count(`select count(*) as n from workflow_runs where organization_id = ? and status = 'COMPLETED'`);
    const seconds = (Date.now() - due.getTime()) / 1000;
    if (done === RUNS) { console.log(`all ${RUNS.toLocaleString('en')} runs resumed ${seconds.toFixed(1)} s after their instant (bar: 10 s)`); if (seconds > 10) code = 2; break; }
    if (Math.round(seconds * 2) % 4 === 0) console.log(`${seconds.toFixed(1)} s after T: ${done} resumed`);
    if (seconds > 300) { console.log('not done in 300 s'); code = 1; break; }
  }
} finally {
  await b.close();
}
process.exit(code);
