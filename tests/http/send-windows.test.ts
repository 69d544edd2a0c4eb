import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { INFRA } from '../../hosts/tokens.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';

/** The local time of `at` in `zone`: weekday 0-6 and minutes after midnight. */
function local(at: Date, zone: string): { weekday: number; minute: number; clock: string } {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', weekday: 'short', hour: '2-digit', minute: '2-digit' })
    .formatToParts(at).map((p) => [p.type, p.value]));
  const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(parts['weekday']!);
  return { weekday, minute: Number(parts['hour']) * 60 + Number(parts['minute']), clock: `${parts['hour']}:${parts['minute']}` };
}

/** Fixed-offset zones (Etc/GMT-14 ... Etc/GMT+12): one of them is in any local hour we want right now. */
function zoneWhere(wanted: (l: ReturnType<typeof local>) => boolean): string {
  for (let offset = -12; offset <= 14; offset++) {
    const zone = offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
    if (wanted(local(new Date(Date.now() + 120_000), zone)) && wanted(local(new Date(), zone))) return zone;
  }
  throw new Error('no zone matches');
}

/**
 * Issue 19, docs/consent.md, over HTTP with SEND_WINDOWS on: a marketing send outside the GH window in the
 * recipient's zone is SCHEDULED for the next opening (charged once, not refused); quiet hours; the admin
 * windows API; contact time zones validated.
 */
describe('HTTP: send windows and quiet hours (SEND_WINDOWS=on)', function () {
  this.timeout(30_000);
  let app: TestApp;
  let tenant: TestTenant;
  let ops: TestTenant;
  const phone = (n: number) => `+2332450${String(n).padStart(5, '0')}`;

  before(async () => {
    app = await startTestApp({ config: { sendWindows: true } });
    tenant = await registerTenant(app.api, 'windows');
    ops = await registerTenant(app.api, 'windows-ops');
    await app.container.get(INFRA.storage).users.setPlatformRole(ops.userId, 'PLATFORM_SUPER_ADMIN');
    await app.container.get(INFRA.storage).wallets.update(tenant.organizationId, () => ({ amount: 100_000, kind: 'TOP_UP', reference: `seed-${randomUUID()}`, description: 'seed' }), new Date());
  });
  after(async () => { await app?.close(); });

  const marketing = (to: string, category = 'MARKETING') =>
    app.api.post('/messages/send', { channel: 'SMS', to, body: 'Weekend sale', category, idempotencyKey: randomUUID() }, tenant.auth);

  it('schedules a marketing SMS for a contact whose local time is at night, for 08:00 on a Monday-to-Saturday morning, charged now', async () => {
    const night = zoneWhere((l) => l.minute >= 20 * 60 + 30 || l.minute < 6 * 60);
    const contact = await app.api.post('/contacts', { phone: phone(1), timeZone: night }, tenant.auth);
    expect(contact.status, contact.text).to.equal(201);
    expect(contact.body.data.timeZone).to.equal(night);
    const before = (await app.api.get('/billing/wallet', tenant.auth)).body.data.balance;
    const sent = await marketing(phone(1));
    expect(sent.status, sent.text).to.equal(202); // held, not sent: as a queued send answers
    expect(sent.body.data).to.include({ status: 'SCHEDULED', category: 'MARKETING' });
    const at = new Date(sent.body.data.scheduledAt);
    expect(at.getTime()).to.be.greaterThan(Date.now());
    expect(local(at, night).clock).to.equal('08:00');
    expect(local(at, night).weekday).to.be.within(1, 6);
    const after = (await app.api.get('/billing/wallet', tenant.auth)).body.data.balance;
    expect(Math.round((before - after) * 100)).to.equal(Math.round(sent.body.data.cost * 100)).and.to.be.greaterThan(0);
    const listed = await app.api.get('/delivery-logs?status=SCHEDULED', tenant.auth);
    expect(listed.status, listed.text).to.equal(200);
    expect(JSON.stringify(listed.body.data)).to.include(sent.body.data.id);
  });

  it('sends at once to a contact whose local time is inside the window, and a TRANSACTIONAL message to the night one', async () => {
    const day = zoneWhere((l) => l.weekday >= 1 && l.weekday <= 6 && l.minute >= 9 * 60 && l.minute < 18 * 60);
    await app.api.post('/contacts', { phone: phone(2), timeZone: day }, tenant.auth);
    expect((await marketing(phone(2))).body.data).to.include({ status: 'SENT', scheduledAt: null });
    expect((await marketing(phone(1), 'TRANSACTIONAL')).body.data.status).to.equal('SENT');
  });

  it('holds REMINDER messages to the organization\'s quiet hours, and validates them', async () => {
    const zone = zoneWhere((l) => l.minute >= 60 && l.minute < 22 * 60); // room for a quiet hour around now
    await app.api.post('/contacts', { phone: phone(3), timeZone: zone }, tenant.auth);
    const nowLocal = local(new Date(), zone).minute;
    const hhmm = (m: number) => `${String(Math.floor(m / 60) % 24).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
    const quietHours = { start: hhmm(nowLocal - 60), end: hhmm(nowLocal + 90) };
    const set = await app.api.patch('/organizations/current', { quietHours }, tenant.auth);
    expect(set.status, set.text).to.equal(200);
    expect(set.body.data.quietHours).to.deep.equal(quietHours);
    const held = await marketing(phone(3), 'REMINDER');
    expect(held.body.data.status).to.equal('SCHEDULED');
    expect(local(new Date(held.body.data.scheduledAt), zone).clock).to.equal(quietHours.end);
    expect((await marketing(phone(3), 'ALERT')).body.data.status).to.equal('SENT');
    const bad = await app.api.patch('/organizations/current', { quietHours: { start: '25:00', end: '07:00' } }, tenant.auth);
    expect(bad.status).to.equal(400);
    expect(bad.body.error.code).to.equal('VALIDATION_ERROR');
    expect((await app.api.patch('/organizations/current', { quietHours: null }, tenant.auth)).body.data.quietHours).to.equal(null);
  });

  it('refuses a contact time zone that is not an IANA name', async () => {
    const bad = await app.api.post('/contacts', { phone: phone(4), timeZone: '+01:00' }, tenant.auth);
    expect(bad.status).to.equal(400);
    expect(bad.body.error.details.fieldErrors).to.have.property('timeZone');
  });

  it('lets platform administrators read and replace the windows (validated, audited), and no one else', async () => {
    const listed = await app.api.get('/admin/send-windows', { token: ops.token });
    expect(listed.status).to.equal(200);
    const original = listed.body.data.windows;
    expect(original).to.deep.include({ country: 'GH', category: 'MARKETING', days: [1, 2, 3, 4, 5, 6], opensAt: '08:00', closesAt: '19:00' });
    expect((await app.api.get('/admin/send-windows', { token: tenant.token })).status).to.equal(403);
    const reversed = await app.api.put('/admin/send-windows', { windows: [{ country: 'GH', category: 'MARKETING', days: [1], opensAt: '19:00', closesAt: '08:00' }] }, { token: ops.token });
    expect(reversed.status).to.equal(400);
    expect(reversed.body.error.details.fieldErrors).to.have.property('windows[0].closesAt');
    const exempt = await app.api.put('/admin/send-windows', { windows: [{ country: 'GH', category: 'OTP', days: [1], opensAt: '08:00', closesAt: '09:00' }] }, { token: ops.token });
    expect(exempt.status).to.equal(400);
    // A schema error inside the list names the row and the field, not just `windows`.
    const badRow = await app.api.put('/admin/send-windows', { windows: [original[0], { country: 'GH', category: 'ALERT', days: [1], opensAt: '8am' }] }, { token: ops.token });
    expect(badRow.status).to.equal(400);
    expect(badRow.body.error.details.fieldErrors.windows).to.include.members(['windows[1].opensAt: must be a time HH:MM', 'windows[1].closesAt: is required']);
    expect(badRow.body.error.message).to.equal('windows: windows[1].opensAt: must be a time HH:MM');
    const twice = await app.api.put('/admin/send-windows', { windows: [...original, original[0]] }, { token: ops.token });
    expect(twice.status).to.equal(400);
    try {
      // No window for GH marketing at all: the night contact's marketing goes at once.
      const cleared = await app.api.put('/admin/send-windows', { windows: original.filter((w: { country: string }) => w.country !== 'GH') }, { token: ops.token });
      expect(cleared.status, cleared.text).to.equal(200);
      expect((await marketing(phone(1))).body.data.status).to.equal('SENT');
    } finally {
      expect((await app.api.put('/admin/send-windows', { windows: original }, { token: ops.token })).status).to.equal(200);
    }
    const audit = await app.container.get(INFRA.storage).auditLog.list({ limit: 20 });
    expect(audit.some((a) => a.action === 'send_windows.replace' && a.actorUserId === ops.userId)).to.equal(true);
  });
});
