import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import type Router from '@koa/router';
import { buildApp } from '../../hosts/api/container.ts';
import { AUDIT_EXEMPT_ROUTES, AUDITED_ROUTES } from '../../hosts/api/audit/org-audit-routes.ts';
import { ORG_AUDIT_ACTIONS } from '../../core/domain/org-audit.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * Every route of the app that changes something is either recorded in the organization's audit log
 * or listed as exempt with a reason (hosts/api/audit/org-audit-routes.ts): a new route cannot
 * silently skip the audit. Exports (GET) are audited too.
 */
describe('HTTP: every write route is audited or exempt with a reason', () => {
  let app: TestApp;
  let router: Router;
  before(async () => {
    app = await startTestApp({ webRoot: null });
    const koa = buildApp(app.container, [], { webRoot: null });
    const dispatch = koa.middleware.find((m) => (m as unknown as { router?: Router }).router) as unknown as { router: Router };
    router = dispatch.router;
  });
  after(async () => { await app.close(); });

  function routeKeys(): string[] {
    return router.stack.flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${layer.path}`));
  }

  it('finds each mutating route of the Koa router in exactly one of the two lists', () => {
    const mutating = routeKeys().filter((k) => !k.startsWith('GET ') || /export/.test(k));
    expect(mutating.length).to.be.greaterThan(60);
    const unlisted = mutating.filter((k) => !(k in AUDITED_ROUTES) && !(k in AUDIT_EXEMPT_ROUTES));
    expect(unlisted, 'add these to AUDITED_ROUTES or AUDIT_EXEMPT_ROUTES (with a reason)').to.deep.equal([]);
    expect(mutating.filter((k) => k in AUDITED_ROUTES && k in AUDIT_EXEMPT_ROUTES)).to.deep.equal([]);
  });

  it('lists no route that does not exist, every exemption has a reason, every action is documented', () => {
    const keys = new Set(routeKeys());
    expect(Object.keys(AUDITED_ROUTES).filter((k) => !keys.has(k))).to.deep.equal([]);
    expect(Object.keys(AUDIT_EXEMPT_ROUTES).filter((k) => !keys.has(k))).to.deep.equal([]);
    expect(Object.values(AUDIT_EXEMPT_ROUTES).filter((reason) => reason.length < 10)).to.deep.equal([]);
    for (const audit of Object.values(AUDITED_ROUTES)) expect(ORG_AUDIT_ACTIONS).to.include(audit.action);
    for (const audit of Object.values(AUDITED_ROUTES)) {
      if (audit.before) expect(keys.has(audit.before.route), audit.before.route).to.equal(true);
    }
  });

  it('documents every action in docs/audit-log.md and offers it in the dashboard\'s filter', async () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const doc = await readFile(path.join(root, 'docs/audit-log.md'), 'utf8');
    const page = await readFile(path.join(root, 'hosts/web/src/pages/audit-log.tsx'), 'utf8');
    expect(ORG_AUDIT_ACTIONS.filter((a) => !doc.includes(`\`${a}\``)), 'missing from docs/audit-log.md').to.deep.equal([]);
    expect(ORG_AUDIT_ACTIONS.filter((a) => !page.includes(`'${a}'`)), 'missing from the dashboard list').to.deep.equal([]);
  });
});
