import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const NODE_20 = '/usr/bin/node';

/** The embedding team's code, plain JavaScript: a queued SMS through SendMessage on the in-memory adapters. */
const CONSUMER_BODY = `
const ids = { n: 0, next() { this.n += 1; return 'id-' + this.n; } };
const clock = new memory.FixedClock();
const storage = new memory.InMemoryStorage(ids);
const secrets = {
  randomToken: () => crypto.randomBytes(24).toString('base64url'),
  sha256: (t) => crypto.createHash('sha256').update(t).digest('hex'),
  hmacSha256: (k, t) => crypto.createHmac('sha256', k).update(t).digest('hex'),
  safeEqual: (a, b) => a === b,
};
const org = ids.next();
await storage.organizations.insert(core.newOrganization(org, 'Embedded Ltd', clock.now()));
await storage.wallets.create(org, clock.now());
await storage.wallets.update(org, () => ({ amount: 1000, kind: 'TOP_UP', reference: 'seed', description: 'seed' }), clock.now());
const send = new core.SendMessage({ storage, pricing: storage.pricing, clock, ids, secrets, fraud: core.DEFAULT_FRAUD_LIMITS,
  deliverNow: async () => { throw new Error('async sends are queued'); } });
const ctx = { organizationId: org, userId: null, apiKeyId: 'key', isSandbox: false };
const { log, queued } = await send.execute(ctx, { channel: 'SMS', to: '0241234567', body: 'Akwaaba', async: true });
let refused = null;
try { await send.execute(ctx, { channel: 'FAX', to: 'x' }); } catch (e) { refused = e instanceof core.AppError ? e.code : String(e); }
const jobs = storage.jobs.take(core.QUEUES.notificationSend).length;
const balance = (await storage.wallets.get(org)).balance;
console.log(JSON.stringify({ node: process.versions.node, status: log.status, recipient: log.recipient, queued, jobs, charged: balance < 1000, refused }));
`;
const ESM = `import crypto from 'node:crypto';\nimport * as core from 'nkra';\nimport * as memory from 'nkra/memory';\n${CONSUMER_BODY}`;
const CJS = `const crypto = require('node:crypto');\nconst core = require('nkra');\nconst memory = require('nkra/memory');\n(async () => {${CONSUMER_BODY}})();`;
const TS_CONSUMER = `import { SendMessage, DEFAULT_FRAUD_LIMITS, AppError, type SendContext, type Secrets } from 'nkra';
import { InMemoryStorage, FixedClock } from 'nkra/memory';
const ids = { n: 0, next(): string { this.n += 1; return 'id-' + this.n; } };
const clock = new FixedClock();
const storage = new InMemoryStorage(ids);
const secrets: Secrets = { randomToken: () => 't', sha256: (t) => t, hmacSha256: (k, t) => k + t, safeEqual: (a, b) => a === b };
const send = new SendMessage({ storage, pricing: storage.pricing, clock, ids, secrets, fraud: DEFAULT_FRAUD_LIMITS, deliverNow: async () => null });
const ctx: SendContext = { organizationId: 'org', userId: null, apiKeyId: null, isSandbox: false };
export async function sendOne(): Promise<string> {
  const { log, queued }: { log: Record<string, unknown>; queued: boolean } = await send.execute(ctx, { channel: 'SMS', to: '0241234567', body: 'hi' });
  return queued ? 'QUEUED' : String(log['status']);
}
export const isAppError = (e: unknown): e is AppError => e instanceof AppError;
// @ts-expect-error: the declarations are real types, not any (a Secrets needs all four functions).
export const incomplete: Secrets = { randomToken: () => 't' };
`;
const TSCONFIG = {
  compilerOptions: {
    target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, skipLibCheck: false,
    exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true,
    // Consumers on Node have @types/node (the ports mention Buffer); borrowed from the repository to stay offline.
    typeRoots: [path.join(ROOT, 'node_modules/@types')], types: ['node'],
  },
  files: ['consumer.ts'],
};

/** npm with the parent's npm_* variables left out (mocha may run under `npm test`); the same cache. */
function npmEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')));
  if (process.env.npm_config_cache) env.npm_config_cache = process.env.npm_config_cache;
  return env;
}

describe('the core as an installable package (npm run pack:lib)', function () {
  this.timeout(90_000);
  let work: string;
  let project: string;
  let packed: { filename: string; size: number; files: Array<{ path: string }> };

  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'nkra-lib-'));
    const lib = path.join(work, 'lib');
    await run(process.execPath, [path.join(ROOT, 'hosts/lib/build-package.ts'), lib]);
    const { stdout } = await run('npm', ['pack', lib, '--pack-destination', work, '--json'], { env: npmEnv(), cwd: work });
    packed = (JSON.parse(stdout) as Array<typeof packed>)[0]!;
    project = path.join(work, 'consumer');
    await mkdir(project);
    await writeFile(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }));
    // Offline: the core's dependencies come from the local npm cache (npm ci put their tarballs there), never the
    // network. Named by tarball URL, as the cache holds tarballs but not the registry's package documents.
    const registry = (await run('npm', ['config', 'get', 'registry'], { env: npmEnv(), cwd: work })).stdout.trim().replace(/\/?$/, '/');
    const { dependencies } = JSON.parse(await readFile(path.join(lib, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const tarballs = Object.entries(dependencies).map(([name, version]) => `${registry}${name}/-/${name.split('/').pop()}-${version}.tgz`);
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--no-save', path.join(work, packed.filename), ...tarballs],
      { env: npmEnv(), cwd: project });
    await writeFile(path.join(project, 'consumer.mjs'), ESM);
    await writeFile(path.join(project, 'consumer.cjs'), CJS);
    await writeFile(path.join(project, 'consumer.ts'), TS_CONSUMER);
    await writeFile(path.join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  });

  after(async () => { if (work) await rm(work, { recursive: true, force: true }); });

  it('packs only the built library (JavaScript, declarations, README, LICENSE) and installs only valibot and libphonenumber-js with it', async () => {
    const files = packed.files.map((f) => f.path);
    expect(files).to.include.members(['package.json', 'README.md', 'LICENSE', 'core/index.js', 'core/index.d.ts', 'adapters/memory/index.js']);
    expect(files.filter((f) => !/\.(js|d\.ts)$/.test(f))).to.have.members(['package.json', 'README.md', 'LICENSE']);
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).to.deep.equal([]);
    expect(files.some((f) => /^(hosts|tests|adapters\/postgres)\//.test(f))).to.equal(false);
    expect(packed.size).to.be.below(1_000_000);
    const installed = (await readdir(path.join(project, 'node_modules'))).filter((n) => !n.startsWith('.')).sort();
    expect(installed).to.deep.equal(['libphonenumber-js', 'nkra', 'valibot']);
  });

  it('runs SendMessage on the in-memory adapters from plain JavaScript (ESM and require) on Node 24 and Node 20', async () => {
    const nodes = [process.execPath, ...(existsSync(NODE_20) ? [NODE_20] : [])];
    const majors: string[] = [];
    for (const node of nodes) {
      for (const file of ['consumer.mjs', 'consumer.cjs']) {
        const { stdout } = await run(node, ['--no-warnings', file], { cwd: project });
        const result = JSON.parse(stdout) as Record<string, unknown>;
        expect(result, `${node} ${file}`).to.include({ status: 'QUEUED', recipient: '+233241234567', queued: true, jobs: 1, charged: true, refused: 'VALIDATION_ERROR' });
        majors.push(String(result.node).split('.')[0]!);
      }
    }
    expect(majors).to.include('24');
    if (existsSync(NODE_20)) expect(majors).to.include('20');
  });

  it('typechecks a strict TypeScript consumer against the shipped declarations', async () => {
    const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
    const { stdout } = await run(process.execPath, [tsc, '-p', project]).catch((e: { stdout: string }) => ({ stdout: e.stdout }));
    expect(stdout.trim()).to.equal('');
  });
});
