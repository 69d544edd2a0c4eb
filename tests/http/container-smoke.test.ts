import { expect } from 'chai';
import { buildApiContainer, buildApp } from '../../hosts/api/container.ts';
import { API } from '../../hosts/api/tokens.ts';
import { createLogger } from '../../hosts/logger.ts';
import { MESSAGING } from '../../hosts/messaging-bindings.ts';
import { ROUTING } from '../../hosts/routing-bindings.ts';

/** Routing tokens that always resolve to a value (sendLookups is undefined without a lookup vendor). */
const { sendLookups: _optional, ...ROUTING_VALUES } = ROUTING;
import { INFRA } from '../../hosts/tokens.ts';
import { buildWorkerContainer, WORKER } from '../../hosts/worker/container.ts';
import { sharedInfrastructure } from '../support/shared-infrastructure.ts';
import { testConfig } from '../support/test-config.ts';

describe('composition roots', () => {
  it('resolve every token of the API container and build the app', async () => {
    const infra = await sharedInfrastructure();
    const container = buildApiContainer(testConfig(), createLogger('silent'), infra);
    for (const [name, token] of Object.entries({ ...INFRA, ...MESSAGING, ...ROUTING_VALUES })) expect(container.get(token as never), name).to.not.equal(undefined);
    for (const [name, token] of Object.entries(API)) {
      if (token === API.routes) expect(container.getAll(API.routes).flat().length, name).to.be.greaterThan(10);
      else expect(container.get(token as never), name).to.not.equal(undefined);
    }
    expect(buildApp(container).callback()).to.be.a('function');
  });

  it('resolve every token of the worker container, with a handler per queue', async () => {
    const infra = await sharedInfrastructure();
    const container = buildWorkerContainer(testConfig(), createLogger('silent'), infra);
    for (const [name, token] of Object.entries({ ...INFRA, ...MESSAGING, ...ROUTING_VALUES })) expect(container.get(token as never), name).to.not.equal(undefined);
    const queues = container.getAll(WORKER.handlers).map((h) => h.queue);
    expect(queues).to.include.members(['notification-send', 'maintenance']);
    expect(new Set(queues).size).to.equal(queues.length);
  });
});
