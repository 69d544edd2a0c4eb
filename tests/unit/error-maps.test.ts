import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { ERROR_CODES } from '../../core/errors.ts';
import { HTTP_STATUS_BY_CODE } from '../../hosts/api/http-error-map.ts';
import { WORKER_POLICY_BY_CODE } from '../../hosts/worker/retry-policy.ts';

describe('error maps', () => {
  it('give every error code an HTTP status between 400 and 599', () => {
    for (const code of ERROR_CODES) expect(HTTP_STATUS_BY_CODE[code], code).to.be.within(400, 599);
    expect(Object.keys(HTTP_STATUS_BY_CODE).sort()).to.deep.equal([...ERROR_CODES].sort());
  });

  it('give every error code a worker retry policy', () => {
    for (const code of ERROR_CODES) expect(['retry', 'fail'], code).to.include(WORKER_POLICY_BY_CODE[code]);
    expect(Object.keys(WORKER_POLICY_BY_CODE).sort()).to.deep.equal([...ERROR_CODES].sort());
  });

  it('are documented: docs/errors.md lists every code with its status and policy', async () => {
    const doc = await readFile(path.resolve(import.meta.dirname, '../../docs/errors.md'), 'utf8');
    for (const code of ERROR_CODES) {
      const row = doc.split('\n').find((line) => line.startsWith(`| ${code} |`));
      expect(row, `docs/errors.md has no row for ${code}`).to.be.a('string');
      expect(row).to.include(`| ${HTTP_STATUS_BY_CODE[code]} |`);
      expect(row).to.include(`| ${WORKER_POLICY_BY_CODE[code]} |`);
    }
  });
});
