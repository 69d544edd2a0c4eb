import { expect } from 'chai';
import type { RouteDefinition } from '../../hosts/api/route.ts';
import { API } from '../../hosts/api/tokens.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';

/**
 * A NUL character (U+0000) anywhere in a request (path parameter, query, JSON body, raw signed body)
 * never reaches PostgreSQL (which refuses it in text, a 500): every route of the route table answers
 * 404 for a path parameter holding one, 400 VALIDATION_ERROR for a query or body holding one.
 */
describe('HTTP: a NUL character in any input answers 4xx on every route, never 500', function () {
  this.timeout(120_000);
  let app: TestApp;
  let owner: TestTenant;
  let routes: RouteDefinition[];

  before(async () => {
    app = await startTestApp();
    owner = await registerTenant(app.api, 'nul');
    // A platform administrator who owns the organization reaches every route's handler.
    await app.container.get(INFRA.storage).users.setPlatformRole(owner.userId, 'PLATFORM_SUPER_ADMIN');
    routes = app.container.getAll(API.routes).flat();
  });
  after(async () => { await app?.close(); });

  const headers = () => ({ authorization: `Bearer ${owner.token}`, 'x-organization-id': owner.organizationId });
  const send = async (method: string, path: string, body?: string, contentType = 'application/json') => {
    const res = await fetch(`${app.url}${path}`, {
      method, headers: { ...headers(), ...(body === undefined ? {} : { 'content-type': contentType }) }, body: body ?? null, signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    let code: string | undefined;
    try { code = (JSON.parse(text) as { error?: { code?: string } }).error?.code; } catch { code = undefined; }
    return { status: res.status, code, text };
  };
  const pathWith = (route: RouteDefinition, value: string) => route.path.replace(/:(\w+)/g, () => value);

  it('answers 404 for a NUL in a path parameter', async () => {
    const failures: string[] = [];
    for (const route of routes.filter((r) => r.path.includes(':'))) {
      const res = await send(route.method, pathWith(route, 'abc%00def'), route.method === 'GET' ? undefined : '{}');
      if (res.status !== 404) failures.push(`${route.method} ${route.path}: ${res.status} ${res.text.slice(0, 120)}`);
    }
    expect(failures).to.deep.equal([]);
  });

  it('answers 400 VALIDATION_ERROR for a NUL in the query string', async () => {
    const failures: string[] = [];
    for (const route of routes.filter((r) => !r.multipart)) { // multipart: 415 for a JSON body first (last test)
      const path = `${pathWith(route, '00000000-0000-0000-0000-000000000000')}?search=a%00b&status=%00&page=1%00`;
      const res = await send(route.method, path, route.method === 'GET' ? undefined : '{}');
      if (res.status !== 400 || res.code !== 'VALIDATION_ERROR') failures.push(`${route.method} ${route.path}: ${res.status} ${res.text.slice(0, 120)}`);
    }
    expect(failures).to.deep.equal([]);
  });

  it('answers 400 VALIDATION_ERROR for a NUL in a JSON body, in a key or a nested value, and in a raw signed body', async () => {
    const failures: string[] = [];
    const bodies = ['{"name":"a\\u0000b","email":"x\\u0000@example.com","to":"\\u0000","reference":"\\u0000"}', '{"messages":[{"body":"ok","to":"a\\u0000"}]}', '{"a\\u0000":"b"}'];
    for (const route of routes.filter((r) => r.method !== 'GET' && !r.multipart && !r.custom)) {
      for (const body of bodies) {
        const res = await send(route.method, pathWith(route, '00000000-0000-0000-0000-000000000000'), body);
        if (res.status !== 400 || res.code !== 'VALIDATION_ERROR') failures.push(`${route.method} ${route.path} ${body}: ${res.status} ${res.text.slice(0, 120)}`);
      }
    }
    expect(failures).to.deep.equal([]);
  });

  it('never answers 500 on the custom and multipart routes either', async () => {
    const failures: string[] = [];
    for (const route of routes.filter((r) => r.custom || r.multipart)) {
      const res = await send(route.method, `${pathWith(route, 'x%00y')}?q=%00`, route.method === 'GET' ? undefined : 'outcome=%00', 'application/x-www-form-urlencoded');
      if (res.status >= 500) failures.push(`${route.method} ${route.path}: ${res.status} ${res.text.slice(0, 120)}`);
    }
    expect(failures).to.deep.equal([]);
  });
});
