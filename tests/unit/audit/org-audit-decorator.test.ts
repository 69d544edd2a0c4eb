import { expect } from 'chai';
import { withOrgAudit } from '../../../hosts/api/audit/org-audit-decorator.ts';
import { ok, type RequestInput, type RouteDefinition } from '../../../hosts/api/route.ts';
import type { Logger } from '../../../hosts/logger.ts';

const route: RouteDefinition = {
  method: 'POST', path: '/things', tag: 'Test', summary: 'make a thing', auth: 'tenant', permission: 'templates:write', responses: {},
  handler: async () => ok({ id: 't-1', name: 'Thing', secret: 'do-not-log' }, 201),
};
const input = (overrides: Partial<RequestInput> = {}) => ({
  body: {}, query: {}, params: {}, user: null, ip: '::ffff:192.0.2.10', requestId: 'req-9', headers: {}, koa: {} as never,
  tenant: { organizationId: 'org-1', userId: 'u-1', role: 'TENANT_OWNER', apiKey: null }, ...overrides,
}) as RequestInput;

describe('withOrgAudit (hosts/api/audit/org-audit-decorator.ts)', () => {
  it('records a successful call with the normalized client address and the answer\'s id as target', async () => {
    const recorded: unknown[] = [];
    const [wrapped] = withOrgAudit([route], { 'POST /things': { action: 'template.created', targetType: 'thing' } },
      { execute: async (context, event) => { recorded.push({ context, event }); return {} as never; } }, {} as Logger);
    expect(await wrapped!.handler(input())).to.deep.equal(ok({ id: 't-1', name: 'Thing', secret: 'do-not-log' }, 201));
    expect(recorded).to.have.length(1);
    expect(recorded[0]).to.deep.nested.include({ 'context.clientAddress': '192.0.2.10', 'context.requestId': 'req-9', 'context.userId': 'u-1', 'event.targetId': 't-1' });
  });

  it('does not record a failed call, nor an API key\'s call on a members-only route', async () => {
    const recorded: unknown[] = [];
    const recorder = { execute: async (...args: unknown[]) => { recorded.push(args); return {} as never; } };
    const failing = { ...route, handler: async () => { throw new Error('refused'); } };
    const [wrappedFailing] = withOrgAudit([failing], { 'POST /things': { action: 'template.created', targetType: 'thing' } }, recorder, {} as Logger);
    let thrown: unknown = null;
    await wrappedFailing!.handler(input()).catch((e: unknown) => { thrown = e; });
    expect(String(thrown)).to.include('refused');
    const [membersOnly] = withOrgAudit([route], { 'POST /things': { action: 'message.sent_from_dashboard', targetType: 'thing', membersOnly: true } }, recorder, {} as Logger);
    await membersOnly!.handler(input({ tenant: { organizationId: 'org-1', userId: null, role: null, apiKey: { id: 'k', isSandbox: false, scopes: [] } } }));
    expect(recorded).to.deep.equal([]);
  });

  it('logs a failure to record with the request id, and the answer stands (the change has happened)', async () => {
    const logged: unknown[] = [];
    const logger = { error: (fields: unknown, message: string) => { logged.push({ fields, message }); } } as unknown as Logger;
    const [wrapped] = withOrgAudit([route], { 'POST /things': { action: 'template.created', targetType: 'thing' } },
      { execute: async () => { throw new Error('database gone'); } }, logger);
    expect((await wrapped!.handler(input()))?.status).to.equal(201);
    expect(logged).to.have.length(1);
    expect(logged[0]).to.deep.nested.include({ message: 'organization audit entry not recorded', 'fields.requestId': 'req-9' });
  });
});
