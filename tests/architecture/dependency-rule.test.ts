import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';

const ROOT = path.resolve(import.meta.dirname, '../..');
const FORBIDDEN_IN_CORE = /from\s+['"](koa|@koa\/|koa-body|@mikro-orm\/|pg-boss|pg['"]|inversify|reflect-metadata|argon2|jose|pino|prom-client|@electric-sql\/|node:)|from\s+['"](\.\.\/)+(adapters|hosts|tests)\//;
const FORBIDDEN_IN_ADAPTERS = /from\s+['"](\.\.\/)+(hosts|tests)\/|from\s+['"](koa|@koa\/|inversify)['"]/;

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(path.join(ROOT, dir), { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.ts')).map((e) => path.join(e.parentPath, e.name));
}

async function offenders(dir: string, rule: RegExp): Promise<string[]> {
  const found: string[] = [];
  for (const file of await sourceFiles(dir)) {
    const lines = (await readFile(file, 'utf8')).split('\n');
    lines.forEach((line, i) => { if (rule.test(line)) found.push(`${path.relative(ROOT, file)}:${i + 1}: ${line.trim()}`); });
  }
  return found;
}

describe('architecture: the dependency rule (hosts -> adapters -> core)', () => {
  it('keeps core free of frameworks, Node built-ins and outer layers', async () => {
    expect(await offenders('core', FORBIDDEN_IN_CORE)).to.deep.equal([]);
  });

  it('keeps adapters free of hosts, tests, Koa and Inversify', async () => {
    expect(await offenders('adapters', FORBIDDEN_IN_ADAPTERS)).to.deep.equal([]);
  });

  it('uses Inversify only in the hosts', async () => {
    const outside = [...await offenders('core', /inversify/), ...await offenders('adapters', /inversify/)];
    expect(outside).to.deep.equal([]);
  });

  it('detects a violation (the rule itself works)', () => {
    expect(FORBIDDEN_IN_CORE.test("import Koa from 'koa';")).to.equal(true);
    expect(FORBIDDEN_IN_CORE.test("import { x } from '../../adapters/postgres/database.ts';")).to.equal(true);
    expect(FORBIDDEN_IN_CORE.test("import * as v from 'valibot';")).to.equal(false);
  });
});
