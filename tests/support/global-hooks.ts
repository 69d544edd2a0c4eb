import { closeSharedInfrastructure, sharedInfrastructure } from './shared-infrastructure.ts';

/**
 * Mocha root hooks. Before anything runs, the shared embedded database (PGlite) is opened and migrated
 * once, with its own generous timeout: every migration from scratch in WebAssembly takes seconds on a
 * quiet machine and much longer on a loaded one, more than one suite's hook should wait. After every
 * test, the shared databases are closed.
 */
export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(300_000);
    await sharedInfrastructure('pglite');
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(30_000);
    await closeSharedInfrastructure();
  },
};
