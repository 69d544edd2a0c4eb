import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { RouteDefinition } from '../../hosts/api/route.ts';
import { API } from '../../hosts/api/tokens.ts';
import type { Credentials } from '../support/api-client.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';

/** A well-formed id that names nothing: path parameters are filled with it. */
const DUMMY_ID = '01970000-0000-7000-8000-000000000000';

function concretePath(route: RouteDefinition): string {
  return route.path.replace(/:[A-Za-z0-9_]+(\([^)]*\))?\??/g, DUMMY_ID);
}

/**
 * Every organization-scoped route the API registers (today's and every route added later), called
 * with the wrong organization, without one, and without credentials.
 */
describe('HTTP: tenant isolation on every organization-scoped route', () => {
  let app: TestApp;
  let a: TestTenant;
  let b: TestTenant;
  let routes: RouteDefinition[];

  before(async () => {
    app = await startTestApp();
    a = await registerTenant(app.api, 'iso-a');
    b = await registerTenant(app.api, 'iso-b');
    routes = app.container.getAll(API.routes).flat().filter((r) => r.auth === 'tenant' || r.auth === 'tenant-or-api-key');
  });
  after(async () => { await app.close(); });

  /** Calls every route with `auth` and lists those whose answer is not `status` with `code`. */
  async function mismatches(auth: Credentials, status: number, code: string): Promise<string[]> {
    const wrong: string[] = [];
    for (const route of routes) {
      const body = route.method === 'GET' ? undefined : {};
      const res = await app.api.request(route.method, concretePath(route), body, auth);
      const actual = typeof res.body === 'object' && res.body ? (res.body as { error?: { code?: string } }).error?.code : undefined;
      if (res.status !== status || actual !== code) wrong.push(`${route.method} ${route.path} -> ${res.status} ${actual ?? res.text.slice(0, 80)}`);
    }
    return wrong;
  }

  it('covers the organization routes at least (the route table is read from the container)', () => {
    const paths = routes.map((r) => `${r.method} ${r.path}`);
    expect(paths).to.include.members(['GET /organizations/current', 'PATCH /organizations/current', 'GET /organizations/members', 'POST /organizations/invite']);
  });

  it('answers 403 FORBIDDEN to a member of organization B naming organization A, on every route', async () => {
    expect(await mismatches({ token: b.token, organizationId: a.organizationId }, 403, 'FORBIDDEN')).to.deep.equal([]);
  });

  it('answers 403 FORBIDDEN for an organization id that does not exist, on every route', async () => {
    expect(await mismatches({ token: b.token, organizationId: randomUUID() }, 403, 'FORBIDDEN')).to.deep.equal([]);
  });

  it('answers 400 ORGANIZATION_REQUIRED to a Bearer token without X-Organization-Id, on every route', async () => {
    expect(await mismatches({ token: b.token }, 400, 'ORGANIZATION_REQUIRED')).to.deep.equal([]);
  });

  it('answers 401 UNAUTHORIZED without credentials, on every route', async () => {
    expect(await mismatches({ organizationId: a.organizationId }, 401, 'UNAUTHORIZED')).to.deep.equal([]);
  });

  it('leaves organization A untouched after all of it', async () => {
    const current = await app.api.get('/organizations/current', a.auth);
    expect(current.status).to.equal(200);
    expect(current.body.data.name).to.equal('Org iso-a');
    expect(current.body.data.members.map((m: { id: string }) => m.id)).to.deep.equal([a.userId]);
  });
});
