import { expect } from 'chai';
import { newOrganization } from '../../../core/domain/organization.ts';
import { buildPipeline, caught, ghPhone } from './messaging-fixtures.ts';

describe('Idempotent sends (idempotencyKey)', () => {
  it('returns the original message for the same key and body, without a second send or charge', async () => {
    const p = await buildPipeline();
    const body = { channel: 'SMS', to: ghPhone(1), body: 'Your code is 1234', idempotencyKey: 'order-17' };
    const first = await p.send.execute(p.live, body);
    const again = await p.send.execute(p.live, { ...body });
    expect(first.replayed).to.equal(false);
    expect(again.replayed).to.equal(true);
    expect(again.log['id']).to.equal(first.log['id']);
    expect(again.log).to.include({ status: 'SENT', cost: 0.03 });
    expect(await p.messages()).to.have.length(1);
    expect(p.providers.sms.received).to.have.length(1);
    expect(await p.entries('DEBIT')).to.have.length(1);
    expect(await p.balance()).to.equal(10_000 - 3);
  });

  it('treats defaults as part of the body: omitting async/countryCode replays a request that spelled them out', async () => {
    const p = await buildPipeline();
    const first = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: 'hi', idempotencyKey: 'k' });
    const again = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: 'hi', idempotencyKey: 'k', async: false, countryCode: 'gh' });
    expect(again).to.include({ replayed: true });
    expect(again.log['id']).to.equal(first.log['id']);
  });

  it('rejects the same key with a different body with IDEMPOTENCY_KEY_REUSED, changing nothing', async () => {
    const p = await buildPipeline();
    await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: 'first', idempotencyKey: 'order-17' });
    const error = await caught(() => p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: 'second', idempotencyKey: 'order-17' }));
    expect(error.code).to.equal('IDEMPOTENCY_KEY_REUSED');
    expect(error.details).to.deep.equal({ idempotencyKey: 'order-17' });
    expect(await p.messages()).to.have.length(1);
    expect(await p.entries()).to.have.length(1);
  });

  it('replays a queued send as queued, and a bulk request with its logs in the original order', async () => {
    const p = await buildPipeline();
    const first = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: 'later', async: true, idempotencyKey: 'a' });
    const again = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: 'later', async: true, idempotencyKey: 'a' });
    expect(again).to.include({ replayed: true, queued: true });
    expect(again.log['id']).to.equal(first.log['id']);
    expect(p.takeJobs()).to.have.length(1);

    const messages = [{ channel: 'SMS', to: ghPhone(2), body: 'x' }, { channel: 'SMS', to: ghPhone(3), body: 'y' }];
    const bulk = await p.bulk.execute(p.live, { messages, idempotencyKey: 'b' });
    const replay = await p.bulk.execute(p.live, { messages, idempotencyKey: 'b' });
    expect(replay.replayed).to.equal(true);
    expect(replay.logs.map((l) => l['id'])).to.deep.equal(bulk.logs.map((l) => l['id']));
    expect(p.providers.sms.received).to.have.length(2);
    expect((await p.entries('DEBIT')).map((e) => e.amount)).to.deep.equal([-3, -6]);
  });

  it('keeps keys per organization and for 24 hours', async () => {
    const p = await buildPipeline();
    const body = { channel: 'SMS', to: ghPhone(1), body: 'hi', idempotencyKey: 'shared' };
    const first = await p.send.execute(p.live, body);
    // Another organization may use the same key.
    const now = p.core.clock.now();
    const otherId = 'org-other';
    await p.core.storage.organizations.insert(newOrganization(otherId, 'Other', now));
    await p.core.storage.wallets.create(otherId, now);
    await p.core.storage.wallets.update(otherId, () => ({ amount: 100, kind: 'TOP_UP', reference: 'seed', description: 'seed' }), now);
    const theirs = await p.send.execute({ ...p.live, organizationId: otherId }, body);
    expect(theirs.replayed).to.equal(false);
    expect(theirs.log['id']).to.not.equal(first.log['id']);

    p.core.clock.advance(24 * 3_600_000);
    const dayLater = await p.send.execute(p.live, body);
    expect(dayLater.replayed).to.equal(false);
    expect(dayLater.log['id']).to.not.equal(first.log['id']);
    expect(await p.entries('DEBIT')).to.have.length(2);
  });
});
