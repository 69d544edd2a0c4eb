import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/test-app.ts';

describe('HTTP: API conventions (envelope, unknown routes, bodies, request ids)', () => {
  let app: TestApp;
  before(async () => { app = await startTestApp({ config: { bodyLimitBytes: 2048 } }); });
  after(async () => { await app.close(); });

  it('answers an unknown route with 404 NOT_FOUND in the error envelope', async () => {
    const res = await app.api.get('/no-such-thing');
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal({ success: false, error: { code: 'NOT_FOUND', message: 'No route for GET /no-such-thing', details: {} } });
  });

  it('answers a wrong method with 405 METHOD_NOT_ALLOWED and an Allow header', async () => {
    const res = await app.api.request('PUT', '/auth/login', { a: 1 });
    expect(res.status).to.equal(405);
    expect(res.body.error.code).to.equal('METHOD_NOT_ALLOWED');
    expect(res.headers.get('allow')).to.equal('POST');
  });

  it('answers malformed JSON with 400 MALFORMED_JSON', async () => {
    const res = await app.api.post('/auth/login', '{"email": ', {}, { 'content-type': 'application/json' });
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('MALFORMED_JSON');
  });

  it('answers a JSON body that is not an object with 400 VALIDATION_ERROR', async () => {
    const res = await app.api.post('/auth/login', '[1,2]', {}, { 'content-type': 'application/json' });
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('VALIDATION_ERROR');
    expect(res.body.error.details.formErrors).to.have.length.greaterThan(0);
  });

  it('answers a body over the configured limit with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await app.api.post('/auth/login', { email: 'a@b.co', password: 'x'.repeat(5000) });
    expect(res.status).to.equal(413);
    expect(res.body.error.code).to.equal('PAYLOAD_TOO_LARGE');
  });

  it('answers a non-JSON body with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const res = await app.api.post('/auth/login', 'email=a@b.co', {}, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.status).to.equal(415);
    expect(res.body.error.code).to.equal('UNSUPPORTED_MEDIA_TYPE');
  });

  it('returns a request id on every response, keeping a sane one given by the caller', async () => {
    const generated = await app.api.get('/no-such-thing');
    expect(generated.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
    const given = await app.api.get('/health', {}, { 'x-request-id': 'trace-abc-12345' });
    expect(given.headers.get('x-request-id')).to.equal('trace-abc-12345');
    const hostile = await app.api.get('/health', {}, { 'x-request-id': 'bad id with spaces and <script>' });
    expect(hostile.headers.get('x-request-id')).to.not.include('script');
  });

  it('answers 500 INTERNAL_ERROR with a generic message and no stack for an unexpected failure', async () => {
    const failing = await startTestApp({
      extraRoutes: [{ method: 'GET', path: '/test/boom', tag: 'Test', summary: 'fails', auth: 'none', responses: {},
        handler: async () => { throw new Error('database password is hunter2'); } }],
    });
    try {
      const res = await failing.api.get('/test/boom');
      expect(res.status).to.equal(500);
      expect(res.body).to.deep.equal({ success: false, error: { code: 'INTERNAL_ERROR', message: 'An unexpected error occurred', details: {} } });
      expect(res.text).to.not.include('hunter2');
    } finally {
      await failing.close();
    }
  });
});
