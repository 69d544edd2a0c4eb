import { expect } from 'chai';
import type { Contact } from '../../../core/domain/contact.ts';
import { nextAllowedTime, type SendWindow } from '../../../core/domain/send-window.ts';
import type { Repositories } from '../../../core/ports/storage.ts';
import type { PreparedMessage } from '../../../core/use-cases/messaging/message-preparation.ts';
import { timeMessages } from '../../../core/use-cases/messaging/send-timing.ts';
import { buildPipeline, ghPhone } from '../messaging/messaging-fixtures.ts';

function newContact(organizationId: string, fields: Partial<Contact>): Contact {
  const now = new Date();
  return { id: `c-${Math.random().toString(36).slice(2)}`, organizationId, firstName: null, lastName: null, phone: null, email: null, countryCode: 'GH', tags: [],
    fcmToken: null, attributes: {}, optedOutAt: null, createdAt: now, updatedAt: now, ...fields };
}

const GH_MARKETING: SendWindow = { country: 'GH', category: 'MARKETING', days: [1, 2, 3, 4, 5, 6], opensAt: '08:00', closesAt: '19:00' };

/**
 * Issue 19, docs/consent.md: send windows per country and category (GH marketing Monday to Saturday,
 * 08:00-19:00, local time) and organization quiet hours defer a message to the next opening (SCHEDULED,
 * charged once at acceptance), never refuse it; TRANSACTIONAL and OTP go at once.
 */
describe('send windows and quiet hours', () => {
  describe('nextAllowedTime', () => {
    const at = (iso: string) => nextAllowedTime(new Date(iso), 'Africa/Accra', GH_MARKETING, null)?.toISOString();

    it('keeps a time inside the window, up to 18:59:59.999', () => {
      expect(at('2026-11-25T12:00:00.000Z')).to.equal('2026-11-25T12:00:00.000Z');
      expect(at('2026-11-25T18:59:59.999Z')).to.equal('2026-11-25T18:59:59.999Z');
      expect(at('2026-11-25T08:00:00.000Z')).to.equal('2026-11-25T08:00:00.000Z');
    });

    it('moves 19:00:00 sharp to 08:00 the next day, and before 08:00 to 08:00 the same day', () => {
      expect(at('2026-11-25T19:00:00.000Z')).to.equal('2026-11-26T08:00:00.000Z');
      expect(at('2026-11-25T07:59:59.999Z')).to.equal('2026-11-25T08:00:00.000Z');
    });

    it('moves Saturday evening and all of Sunday to Monday 08:00', () => {
      expect(at('2026-11-28T19:00:00.000Z')).to.equal('2026-11-30T08:00:00.000Z'); // Saturday
      expect(at('2026-11-29T10:00:00.000Z')).to.equal('2026-11-30T08:00:00.000Z'); // Sunday midday
      expect(at('2026-11-29T23:59:59.000Z')).to.equal('2026-11-30T08:00:00.000Z');
    });

    it('reads the window in the recipient\'s time zone (Lagos is an hour ahead of Accra; New York keeps its DST)', () => {
      expect(nextAllowedTime(new Date('2026-11-25T18:30:00.000Z'), 'Africa/Lagos', GH_MARKETING, null)?.toISOString()).to.equal('2026-11-26T07:00:00.000Z');
      expect(nextAllowedTime(new Date('2026-11-25T06:30:00.000Z'), 'Africa/Lagos', GH_MARKETING, null)?.toISOString()).to.equal('2026-11-25T07:00:00.000Z');
      // Saturday 22:00 EST -> Monday 08:00 EDT (clocks went forward on Sunday 8 March 2026).
      expect(nextAllowedTime(new Date('2026-03-08T03:00:00.000Z'), 'America/New_York', GH_MARKETING, null)?.toISOString()).to.equal('2026-03-09T12:00:00.000Z');
    });

    it('holds quiet hours spanning midnight, alone and with a window', () => {
      const quiet = { start: '21:00', end: '07:00' };
      expect(nextAllowedTime(new Date('2026-11-25T20:59:00.000Z'), 'Africa/Accra', null, quiet)?.toISOString()).to.equal('2026-11-25T20:59:00.000Z');
      expect(nextAllowedTime(new Date('2026-11-25T21:00:00.000Z'), 'Africa/Accra', null, quiet)?.toISOString()).to.equal('2026-11-26T07:00:00.000Z');
      expect(nextAllowedTime(new Date('2026-11-26T03:00:00.000Z'), 'Africa/Accra', null, quiet)?.toISOString()).to.equal('2026-11-26T07:00:00.000Z');
      expect(nextAllowedTime(new Date('2026-11-25T22:00:00.000Z'), 'Africa/Accra', GH_MARKETING, { start: '21:00', end: '09:00' })?.toISOString()).to.equal('2026-11-26T09:00:00.000Z');
    });

    it('answers null when nothing in the next 8 days is allowed (a window without days)', () => {
      expect(nextAllowedTime(new Date('2026-11-25T12:00:00.000Z'), 'Africa/Accra', { ...GH_MARKETING, days: [] }, null)).to.equal(null);
    });
  });

  describe('in the send path', () => {
    async function pipelineAt(iso: string) {
      const p = await buildPipeline();
      p.core.clock.set(new Date(iso));
      return p;
    }
    const marketing = (to = ghPhone(1)) => ({ channel: 'SMS', to, body: 'Weekend sale', category: 'MARKETING', async: true });

    it('schedules a marketing SMS sent at 19:00:00 GH time for 08:00 the next morning, charged once now, with no delivery job yet', async () => {
      const p = await pipelineAt('2026-11-25T19:00:00.000Z');
      const before = await p.balance();
      const { log } = await p.send.execute(p.live, marketing());
      expect(log).to.include({ status: 'SCHEDULED', scheduledAt: '2026-11-26T08:00:00.000Z', category: 'MARKETING' });
      expect(before - await p.balance()).to.equal((await p.messages())[0]!.cost).and.to.be.greaterThan(0);
      expect(p.core.storage.state.jobs.filter((j) => j.queue === 'notification-send')).to.have.length(0);
    });

    it('sends a marketing SMS at 18:59:59 at once, and a transactional one or an OTP at 23:00', async () => {
      const p = await pipelineAt('2026-11-25T18:59:59.000Z');
      expect((await p.send.execute(p.live, marketing())).log.status).to.equal('QUEUED');
      p.core.clock.set(new Date('2026-11-25T23:00:00.000Z'));
      expect((await p.send.execute(p.live, { ...marketing(ghPhone(2)), category: 'TRANSACTIONAL' })).log).to.include({ status: 'QUEUED', scheduledAt: null });
      expect((await p.send.execute(p.live, { ...marketing(ghPhone(3)), category: 'OTP' })).log.status).to.equal('QUEUED');
    });

    it('moves a Sunday marketing send to Monday 08:00, and uses the contact\'s own time zone', async () => {
      const p = await pipelineAt('2026-11-29T12:00:00.000Z');
      expect((await p.send.execute(p.live, marketing())).log).to.include({ status: 'SCHEDULED', scheduledAt: '2026-11-30T08:00:00.000Z' });
      p.core.clock.set(new Date('2026-11-25T18:30:00.000Z')); // 18:30 in Accra, 19:30 in Lagos
      await p.core.storage.contacts.insert(newContact(p.organizationId, { phone: ghPhone(9), timeZone: 'Africa/Lagos' }));
      expect((await p.send.execute(p.live, marketing(ghPhone(9)))).log).to.include({ status: 'SCHEDULED', scheduledAt: '2026-11-26T07:00:00.000Z' });
      expect((await p.send.execute(p.live, marketing(ghPhone(8)))).log.status).to.equal('QUEUED');
    });

    it('holds REMINDER messages to the organization\'s quiet hours but never ALERT ones', async () => {
      const p = await pipelineAt('2026-11-25T22:00:00.000Z');
      await p.core.storage.organizations.update(p.organizationId, { quietHours: { start: '21:00', end: '07:00' } }, new Date());
      expect((await p.send.execute(p.live, { ...marketing(), category: 'REMINDER' })).log).to.include({ status: 'SCHEDULED', scheduledAt: '2026-11-26T07:00:00.000Z' });
      expect((await p.send.execute(p.live, { ...marketing(ghPhone(4)), category: 'ALERT' })).log.status).to.equal('QUEUED');
    });

    it('reads no windows for a batch that cannot be held (transactional, OTP or refused): a Verify batch costs no window query', async () => {
      const p = await buildPipeline();
      const tx = { sendWindows: { list: () => { throw new Error('read the send windows'); } } } as unknown as Repositories;
      const organization = (await p.core.storage.organizations.findById(p.organizationId))!;
      const prepared = (category: string, sendAt: Date | null) => ({ category, sendAt, recipient: ghPhone(1), country: 'GH', channel: 'SMS' }) as unknown as PreparedMessage;
      const later = new Date('2026-11-26T12:00:00.000Z');
      const times = await timeMessages(tx, {}, [
        { organization, prepared: prepared('OTP', null), refused: false },
        { organization, prepared: prepared('TRANSACTIONAL', later), refused: false },
        { organization, prepared: prepared('MARKETING', null), refused: true },
      ], new Date('2026-11-25T22:00:00.000Z'));
      expect(times).to.deep.equal([null, later, null]);
    });

    it('applies windows from data: a window an administrator adds for Nigeria holds Nigerian numbers', async () => {
      const p = await pipelineAt('2026-11-25T21:30:00.000Z'); // 22:30 in Lagos
      await p.core.storage.sendWindows.replaceAll([GH_MARKETING, { ...GH_MARKETING, country: 'NG', closesAt: '20:00' }], new Date());
      const nigerian = await p.send.execute(p.live, { ...marketing('+2348031234567') });
      expect(nigerian.log).to.include({ status: 'SCHEDULED', scheduledAt: '2026-11-26T07:00:00.000Z' });
      const kenyan = await p.send.execute(p.live, { ...marketing('+254712345678') });
      expect(kenyan.log.status).to.equal('QUEUED');
    });
  });
});
