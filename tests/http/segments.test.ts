import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';

describe('HTTP: /segments (create, list with counts, preview, static vs dynamic)', function () {
  this.timeout(30_000);
  let app: TestApp;
  let owner: TestTenant;
  let other: TestTenant;

  before(async () => {
    app = await startTestApp();
    owner = await registerTenant(app.api, 'segments');
    other = await registerTenant(app.api, 'segments-other');
    for (const c of [
      { firstName: 'Ama', phone: '0241000101', tags: ['vip'], attributes: { city: 'Kumasi', plan: 'gold' } },
      { firstName: 'Kofi', phone: '0551000102', tags: ['vip'], attributes: { city: 'Accra' } },
      { firstName: 'Yaw', phone: '0201000103', email: 'yaw@seg.test' },
    ]) expect((await app.api.post('/contacts', c, owner.auth)).status).to.equal(201);
  });
  after(async () => { await app.close(); });

  const mtn = { field: 'phone', op: 'startsWith', value: ['024', '054', '055', '059'] };

  it('previews the count and a sample of matching contacts', async () => {
    const res = await app.api.post('/segments/preview', { rules: { all: [mtn, { field: 'tags', op: 'contains', value: 'vip' }] } }, owner.auth);
    expect(res.status, res.text).to.equal(200);
    expect(res.body.data.count).to.equal(2);
    expect(res.body.data.sample.map((c: any) => c.firstName).sort()).to.deep.equal(['Ama', 'Kofi']);
    expect((await app.api.post('/segments/preview', { rules: mtn }, other.auth)).body.data.count).to.equal(0);
  });

  it('takes the spec shorthand (field equals value, an array any of its values, tags by membership) and {} for everyone, in preview and create', async () => {
    const preview = async (rules: unknown) => (await app.api.post('/segments/preview', { rules }, owner.auth)).body.data.count as number;
    expect(await preview({})).to.equal(3);
    expect(await preview({ countryCode: 'GH', tags: ['vip'] })).to.equal(2);
    expect(await preview({ tags: 'vip', firstName: ['ama', 'Yaw'] })).to.equal(1);
    expect(await preview({ firstName: ['Kofi', 'Yaw'] })).to.equal(2);
    expect(await preview({ address: 'email', optedOut: false })).to.equal(1);
    expect(await preview({ tags: ['nobody-has-this'] })).to.equal(0);
    const created = await app.api.post('/segments', { name: 'VIPs in Ghana', rules: { countryCode: 'GH', tags: ['vip'] } }, owner.auth);
    expect(created.status, created.text).to.equal(201);
    expect(created.body.data.contactCount).to.equal(2);
    const everyone = await app.api.post('/segments', { name: 'Everyone', rules: {} }, owner.auth);
    expect(everyone.status, everyone.text).to.equal(201);
    expect(everyone.body.data.contactCount).to.equal(3);
    const unknown = await app.api.post('/segments/preview', { rules: { '9lives': 'blue' } }, owner.auth);
    expect(unknown.status).to.equal(400);
    expect(unknown.body.error.details.path).to.equal('rules.9lives');
  });

  it('filters on contact attributes: shorthand keys that are not contact fields, and { field: attribute } conditions', async () => {
    const preview = async (rules: unknown) => (await app.api.post('/segments/preview', { rules }, owner.auth)).body.data.count as number;
    expect(await preview({ city: 'Kumasi' })).to.equal(1);
    expect(await preview({ city: ['Kumasi', 'Accra'], tags: 'vip' })).to.equal(2);
    expect(await preview({ field: 'attribute', name: 'plan', op: 'exists' })).to.equal(1);
    expect(await preview({ field: 'attribute', name: 'city', op: 'startsWith', value: 'Ac' })).to.equal(1);
    expect(await preview({ favouriteColour: 'blue' })).to.equal(0);
    const bad = await app.api.post('/segments/preview', { rules: { field: 'attribute', name: 'city', op: 'before', value: 'x' } }, owner.auth);
    expect(bad.status).to.equal(400);
  });

  it('answers VALIDATION_ERROR pointing at the bad rule', async () => {
    const res = await app.api.post('/segments', { name: 'Bad', rules: { any: [mtn, { field: 'tags', op: 'startsWith', value: 'x' }] } }, owner.auth);
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('VALIDATION_ERROR');
    expect(res.body.error.details.path).to.equal('rules.any[1].op');
    expect((await app.api.post('/segments/preview', { rules: 'all' }, owner.auth)).status).to.equal(400);
  });

  it('keeps a static segment frozen while a dynamic one follows new contacts; lists both with live counts', async () => {
    const dynamic = await app.api.post('/segments', { name: 'MTN', rules: mtn }, owner.auth);
    expect(dynamic.status, dynamic.text).to.equal(201);
    expect(dynamic.body.data).to.include({ isDynamic: true, contactCount: 2 });
    const frozen = await app.api.post('/segments', { name: 'MTN frozen', rules: mtn, isDynamic: false, description: 'as of today' }, owner.auth);
    expect(frozen.body.data).to.include({ isDynamic: false, contactCount: 2 });
    await app.api.post('/contacts', { firstName: 'Late', phone: '0591000104' }, owner.auth);
    const list = await app.api.get('/segments', owner.auth);
    expect(list.status).to.equal(200);
    const counts = Object.fromEntries(list.body.data.map((s: any) => [s.name, s.contactCount]));
    expect(counts).to.deep.include({ MTN: 3, 'MTN frozen': 2, Everyone: 4 }); // 'Everyone' ({}) is dynamic too: it follows 'Late'
    expect((await app.api.get(`/segments/${frozen.body.data.id}`, owner.auth)).body.data.rules).to.deep.equal({ ...mtn, value: ['+23324', '+23354', '+23355', '+23359'] });
    expect((await app.api.get(`/segments/${frozen.body.data.id}`, other.auth)).status).to.equal(404);
    expect((await app.api.get('/segments', other.auth)).body.data).to.deep.equal([]);
  });
});
