import { expect } from 'chai';
import { GetEvent } from '../../../core/use-cases/events/get-event.ts';
import { ListEvents } from '../../../core/use-cases/events/list-events.ts';
import { UpdateEvent } from '../../../core/use-cases/events/update-event.ts';
import { caught } from '../messaging/messaging-fixtures.ts';
import { buildEvents } from './events-fixtures.ts';

describe('Notification events: create, list, get, update, deactivate', () => {
  it('creates an event with the spec defaults and lists it with its template', async () => {
    const e = await buildEvents();
    const template = await e.template();
    const created = await e.createEvent.execute(e.scope, { name: ' Order shipped ', slug: 'order.shipped', templateId: template.id });
    expect(created).to.include({ name: 'Order shipped', slug: 'order.shipped', isActive: true, description: null });
    expect(created.channelPriority).to.deep.equal(['SMS']);
    expect(created.retryRules).to.deep.equal({ attempts: 1, backoffSeconds: 60, backoffMultiplier: 2 });
    expect(created.fallbackRules).to.deep.equal({ channels: [] });
    expect(created.template).to.include({ id: template.id, channel: 'SMS', status: 'APPROVED' });
    const listed = await new ListEvents(e.core).execute(e.scope);
    expect(listed.map((l) => [l.slug, l.template?.id])).to.deep.equal([['order.shipped', template.id]]);
    expect(await new ListEvents(e.core).execute({ organizationId: 'another-org' })).to.deep.equal([]);
  });

  it('refuses a used slug (SLUG_EXISTS), a bad slug, an unknown template and bad rules', async () => {
    const e = await buildEvents();
    await e.createEvent.execute(e.scope, { name: 'A', slug: 'a' });
    expect((await caught(() => e.createEvent.execute(e.scope, { name: 'B', slug: 'a' }))).code).to.equal('SLUG_EXISTS');
    const badSlug = await caught(() => e.createEvent.execute(e.scope, { name: 'B', slug: 'Order Shipped' }));
    expect(Object.keys(badSlug.details['fieldErrors'] as object)).to.deep.equal(['slug']);
    const badTemplate = await caught(() => e.createEvent.execute(e.scope, { name: 'B', slug: 'b', templateId: 'nope' }));
    expect(badTemplate.details['fieldErrors']).to.deep.equal({ templateId: ['template not found'] });
    const badRules = await caught(() => e.createEvent.execute(e.scope, {
      name: 'B', slug: 'b', retryRules: { attempts: 9 }, fallbackRules: { channels: ['SMS', 'SMS'] }, channelPriority: [] }));
    expect(Object.keys(badRules.details['fieldErrors'] as object).sort()).to.deep.equal(['channelPriority', 'fallbackRules', 'retryRules']);
    const noName = await caught(() => e.createEvent.execute(e.scope, { slug: 'c' }));
    expect(noName.details['fieldErrors']).to.deep.equal({ name: ['is required'] });
  });

  it('updates fields, keeps slugs unique, deactivates, and hides other organizations\' events', async () => {
    const e = await buildEvents();
    const update = new UpdateEvent(e.core);
    const a = await e.createEvent.execute(e.scope, { name: 'A', slug: 'a' });
    await e.createEvent.execute(e.scope, { name: 'B', slug: 'b' });
    const updated = await update.execute(e.scope, a.id, { name: 'A2', channelPriority: ['EMAIL', 'SMS'], retryRules: { attempts: 2 }, description: 'x' });
    expect(updated).to.include({ name: 'A2', slug: 'a', description: 'x' });
    expect(updated.retryRules).to.deep.equal({ attempts: 2, backoffSeconds: 60, backoffMultiplier: 2 });
    expect((await caught(() => update.execute(e.scope, a.id, { slug: 'b' }))).code).to.equal('SLUG_EXISTS');
    expect((await update.deactivate(e.scope, a.id)).isActive).to.equal(false);
    expect((await update.deactivate(e.scope, a.id)).isActive).to.equal(false);
    expect((await new GetEvent(e.core).execute(e.scope, a.id)).isActive).to.equal(false);
    expect((await caught(() => new GetEvent(e.core).execute({ organizationId: 'other' }, a.id))).code).to.equal('NOT_FOUND');
    expect((await caught(() => update.execute({ organizationId: 'other' }, a.id, { name: 'X' }))).code).to.equal('NOT_FOUND');
  });
});
