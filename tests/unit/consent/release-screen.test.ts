import { expect } from 'chai';
import { consentReleaseScreen } from '../../../core/use-cases/consent/consent-release-screen.ts';
import { applyPreferenceChanges } from '../../../core/use-cases/consent/apply-preference-changes.ts';
import { ReleaseScheduledMessages } from '../../../core/use-cases/messaging/release-scheduled-messages.ts';
import { buildPipeline, ghPhone } from '../messaging/messaging-fixtures.ts';

/** Issue 19: a message scheduled before its recipient opted out is refused at release and refunded (docs/consent.md). */
describe('consent at release of scheduled messages', () => {
  it('rejects and refunds a scheduled REMINDER whose recipient opted out of reminders since, and releases the others', async () => {
    const p = await buildPipeline();
    p.core.clock.set(new Date('2026-11-25T10:00:00.000Z'));
    const sendAt = '2026-11-25T12:00:00.000Z';
    const out = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: 'Your appointment is tomorrow', category: 'REMINDER', sendAt, async: true });
    const kept = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(2), body: 'Your appointment is tomorrow', category: 'REMINDER', sendAt, async: true });
    const receipt = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: 'Your receipt', sendAt, async: true });
    expect([out.log.status, kept.log.status, receipt.log.status]).to.deep.equal(['SCHEDULED', 'SCHEDULED', 'SCHEDULED']);
    const charged = await p.balance();
    await p.core.storage.transaction((tx) => applyPreferenceChanges(tx, p.core, { organizationId: p.organizationId, addresses: new Map([['SMS', ghPhone(1)]]), contactId: null },
      [{ category: 'REMINDER', channel: 'SMS', optedIn: false }], 'api', 'user-1'));
    p.core.clock.set(new Date(sendAt));
    const result = await new ReleaseScheduledMessages({ storage: p.core.storage, clock: p.core.clock, ids: p.core.ids, screen: consentReleaseScreen }).execute();
    expect(result).to.include({ released: 2, rejected: 1 });
    const byId = new Map((await p.messages()).map((m) => [m.id, m]));
    expect(byId.get(out.log.id as string)).to.include({ status: 'REJECTED', errorCode: 'RECIPIENT_OPTED_OUT' });
    expect(byId.get(kept.log.id as string)?.status).to.equal('QUEUED');
    expect(byId.get(receipt.log.id as string)?.status).to.equal('QUEUED'); // TRANSACTIONAL: never refused by a category opt-out
    expect(await p.balance()).to.equal(charged + (out.log.cost as number) * 100);
  });
});
