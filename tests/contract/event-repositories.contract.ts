import { expect } from 'chai';
import type { EventTrigger, NotificationEvent, TriggerStep } from '../../core/domain/notification-event.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { at, rejection, seedOrganization, uniqueId } from './contract-fixtures.ts';

function anEvent(organizationId: string, overrides: Partial<NotificationEvent> = {}): NotificationEvent {
  return {
    id: uniqueId('event'), organizationId, name: 'Order shipped', slug: `order.shipped-${uniqueId('s').slice(0, 12)}`, description: null,
    channelPriority: ['SMS', 'EMAIL'], templateId: null, retryRules: { attempts: 2, backoffSeconds: 30, backoffMultiplier: 1.5 },
    fallbackRules: { channels: ['WHATSAPP'] }, isActive: true, createdAt: at(0), updatedAt: at(0), ...overrides,
  };
}

function aTrigger(event: NotificationEvent, overrides: Partial<EventTrigger> = {}): EventTrigger {
  return {
    id: uniqueId('trigger'), organizationId: event.organizationId, eventId: event.id, eventSlug: event.slug, contactId: null, to: '+233241234567',
    variables: { name: 'Ama', 'a.b': 'x' }, countryCode: 'GH', templateId: null, fallbackSubject: 'Order shipped',
    plan: [{ channel: 'SMS', recipient: '+233241234567' }, { channel: 'WHATSAPP', recipient: '+233241234567' }],
    unreachable: [{ channel: 'EMAIL', reason: 'to is a phone number' }], retryRules: event.retryRules, apiKeyId: 'key-1', userId: null, isSandbox: true,
    state: 'ACTIVE', currentStep: 0, currentAttempt: 1, currentMessageId: uniqueId('msg'), retryAt: null, version: 1, createdAt: at(1), updatedAt: at(1),
    ...overrides,
  };
}

function aStep(trigger: EventTrigger, sequence: number, overrides: Partial<TriggerStep> = {}): TriggerStep {
  return {
    id: uniqueId('step'), triggerId: trigger.id, organizationId: trigger.organizationId, sequence, channel: 'SMS', recipient: '+233241234567',
    attempt: 1, messageId: uniqueId('msg'), errorCode: null, errorMessage: null, createdAt: at(sequence), ...overrides,
  };
}

/** NotificationEventRepository and EventTriggerRepository contracts, run against every Storage. */
export function describeEventRepositoriesContract(name: string, makeStorage: () => Promise<Storage>): void {
  describe(`NotificationEvent and EventTrigger repositories contract: ${name}`, () => {
    let storage: Storage;
    before(async () => { storage = await makeStorage(); });

    it('stores events per organization and finds them by id and slug', async () => {
      const a = await seedOrganization(storage); const b = await seedOrganization(storage);
      const event = anEvent(a.id, { description: 'When an order leaves' });
      await storage.notificationEvents.insert(event);
      expect(await storage.notificationEvents.findById(a.id, event.id)).to.deep.equal(event);
      expect(await storage.notificationEvents.findBySlug(a.id, event.slug)).to.deep.equal(event);
      expect(await storage.notificationEvents.findById(b.id, event.id)).to.equal(null);
      expect(await storage.notificationEvents.findBySlug(b.id, event.slug)).to.equal(null);
    });

    it('refuses a second event with the same slug in one organization (CONFLICT), not across organizations', async () => {
      const a = await seedOrganization(storage); const b = await seedOrganization(storage);
      const event = anEvent(a.id);
      await storage.notificationEvents.insert(event);
      expect((await rejection(storage.notificationEvents.insert(anEvent(a.id, { slug: event.slug })))).code).to.equal('CONFLICT');
      await storage.notificationEvents.insert(anEvent(b.id, { slug: event.slug }));
      const other = anEvent(a.id);
      await storage.notificationEvents.insert(other);
      expect((await rejection(storage.notificationEvents.update(a.id, other.id, { slug: event.slug, updatedAt: at(5) }))).code).to.equal('CONFLICT');
    });

    it('lists newest first, bounded, and updates only the given fields within the organization', async () => {
      const a = await seedOrganization(storage); const b = await seedOrganization(storage);
      const older = anEvent(a.id, { createdAt: at(1), updatedAt: at(1) });
      const newer = anEvent(a.id, { createdAt: at(2), updatedAt: at(2) });
      await storage.notificationEvents.insert(older); await storage.notificationEvents.insert(newer);
      expect((await storage.notificationEvents.list(a.id, 10)).map((e) => e.id)).to.deep.equal([newer.id, older.id]);
      expect((await storage.notificationEvents.list(a.id, 1)).map((e) => e.id)).to.deep.equal([newer.id]);
      const patch = { isActive: false, channelPriority: ['PUSH' as const], retryRules: { attempts: 1, backoffSeconds: 0, backoffMultiplier: 1 }, templateId: null, updatedAt: at(9) };
      expect(await storage.notificationEvents.update(a.id, older.id, patch)).to.deep.equal({ ...older, ...patch });
      expect(await storage.notificationEvents.update(b.id, older.id, { name: 'x', updatedAt: at(9) })).to.equal(null);
      expect((await storage.notificationEvents.findById(a.id, older.id))?.name).to.equal('Order shipped');
    });

    it('stores triggers, finds them per organization or by id for the worker', async () => {
      const a = await seedOrganization(storage); const b = await seedOrganization(storage);
      const event = anEvent(a.id);
      await storage.notificationEvents.insert(event);
      const trigger = aTrigger(event, { retryAt: at(30) });
      await storage.transaction(async (tx) => tx.eventTriggers.insert(trigger));
      expect(await storage.eventTriggers.findById(a.id, trigger.id)).to.deep.equal(trigger);
      expect(await storage.eventTriggers.findById(b.id, trigger.id)).to.equal(null);
      expect(await storage.eventTriggers.findForAdvance(trigger.id)).to.deep.equal(trigger);
    });

    it('lists an event\'s triggers newest first, bounded, within the organization', async () => {
      const a = await seedOrganization(storage);
      const event = anEvent(a.id); const other = anEvent(a.id);
      await storage.notificationEvents.insert(event); await storage.notificationEvents.insert(other);
      const older = aTrigger(event, { createdAt: at(1), updatedAt: at(1) });
      const newer = aTrigger(event, { createdAt: at(2), updatedAt: at(2) });
      await storage.eventTriggers.insert(older); await storage.eventTriggers.insert(newer); await storage.eventTriggers.insert(aTrigger(other));
      expect((await storage.eventTriggers.listByEvent(a.id, event.id, 10)).map((t) => t.id)).to.deep.equal([newer.id, older.id]);
      expect((await storage.eventTriggers.listByEvent(a.id, event.id, 1)).map((t) => t.id)).to.deep.equal([newer.id]);
      expect(await storage.eventTriggers.listByEvent(uniqueId('org'), event.id, 10)).to.deep.equal([]);
    });

    it('advances a trigger only from the expected version (compare-and-set)', async () => {
      const a = await seedOrganization(storage);
      const event = anEvent(a.id);
      await storage.notificationEvents.insert(event);
      const trigger = aTrigger(event);
      await storage.eventTriggers.insert(trigger);
      const patch = { state: 'WAITING_RETRY' as const, retryAt: at(60), currentAttempt: 2, updatedAt: at(3) };
      const advanced = await storage.eventTriggers.advance(trigger.id, 1, patch);
      expect(advanced).to.deep.equal({ ...trigger, ...patch, version: 2 });
      expect(await storage.eventTriggers.advance(trigger.id, 1, { state: 'EXHAUSTED', updatedAt: at(4) })).to.equal(null);
      const cleared = await storage.eventTriggers.advance(trigger.id, 2, { state: 'ACTIVE', retryAt: null, currentMessageId: 'm-2', updatedAt: at(5) });
      expect(cleared).to.include({ state: 'ACTIVE', retryAt: null, currentMessageId: 'm-2', version: 3 });
    });

    it('records steps in order, finds a step by its message, and rolls steps back with the transaction', async () => {
      const a = await seedOrganization(storage);
      const event = anEvent(a.id);
      await storage.notificationEvents.insert(event);
      const trigger = aTrigger(event);
      await storage.eventTriggers.insert(trigger);
      const second = aStep(trigger, 2, { channel: 'WHATSAPP', attempt: 1 });
      const first = aStep(trigger, 1);
      const skipped = aStep(trigger, 3, { messageId: null, channel: 'EMAIL', errorCode: 'INSUFFICIENT_BALANCE', errorMessage: 'no money' });
      await storage.eventTriggers.insertStep(second); await storage.eventTriggers.insertStep(first); await storage.eventTriggers.insertStep(skipped);
      expect(await storage.eventTriggers.listSteps(a.id, trigger.id)).to.deep.equal([first, second, skipped]);
      expect(await storage.eventTriggers.listSteps(uniqueId('other-org'), trigger.id)).to.deep.equal([]);
      expect(await storage.eventTriggers.findStepByMessage(second.messageId!)).to.deep.equal(second);
      expect(await storage.eventTriggers.findStepByMessage(uniqueId('msg'))).to.equal(null);
      const rolledBack = aStep(trigger, 4);
      await storage.transaction(async (tx) => { await tx.eventTriggers.insertStep(rolledBack); throw new Error('boom'); }).catch(() => undefined);
      expect(await storage.eventTriggers.findStepByMessage(rolledBack.messageId!)).to.equal(null);
    });
  });
}
