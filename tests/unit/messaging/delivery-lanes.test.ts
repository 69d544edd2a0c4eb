import { expect } from 'chai';
import { newOrganization } from '../../../core/domain/organization.ts';
import { QUEUES } from '../../../core/ports/job-queue.ts';
import { buildPipeline, ghPhone } from './messaging-fixtures.ts';

describe('Delivery lanes and fair shares from acceptance (docs/adr/0036-delivery-lanes-and-fair-queueing.md)', () => {
  it('fetches an organization\'s later OTP send before its own queued bulk, and another organization\'s single send within the next few jobs', async () => {
    const p = await buildPipeline({ balance: 100_000 });
    const { storage, clock, ids } = p.core;
    const other = ids.next();
    await storage.organizations.insert(newOrganization(other, 'Other Foods', clock.now()));
    await storage.wallets.create(other, clock.now());
    await storage.wallets.update(other, () => ({ amount: 1_000, kind: 'TOP_UP', reference: 'seed', description: 'seed' }), clock.now());

    const bulk = await p.bulk.execute(p.live, { async: true, messages: Array.from({ length: 100 }, (_, i) => ({ channel: 'SMS', to: ghPhone(100 + i), body: `Parcel ${i} shipped` })) });
    expect(bulk.logs).to.have.length(100);
    const otp = (await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: 'Your code is 135790', category: 'OTP', async: true })).log;
    const single = (await p.send.execute({ ...p.live, organizationId: other }, { channel: 'SMS', to: ghPhone(2), body: 'Your table is ready', async: true })).log;

    const fetched = Array.from({ length: 4 }, () => storage.jobs.fetch(QUEUES.notificationSend, 1)).flat().map((j) => j.data['messageId']);
    expect(fetched[0], 'the passcode first').to.equal(otp['id']);
    expect(fetched.slice(1), 'the other organization behind at most two of the 100 queued').to.include(single['id']);
    expect((await storage.jobs.laneBacklog(QUEUES.notificationSend, p.organizationId)).map((l) => [l.lane, l.waiting])).to.deep.equal([['OTP', 0], ['TRANSACTIONAL', 98], ['MARKETING', 0]]);
  });
});
