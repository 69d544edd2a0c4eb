import { closeSharedInfrastructure } from './shared-infrastructure.ts';

/** Mocha root hooks: close the shared databases once every test has run. */
export const mochaHooks = {
  async afterAll(this: Mocha.Context) {
    this.timeout(30_000);
    await closeSharedInfrastructure();
  },
};
