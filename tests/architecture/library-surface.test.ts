import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('architecture: the core library surface', () => {
  it('exports every core module from core/index.ts', async () => {
    const index = await readFile(path.join(ROOT, 'core/index.ts'), 'utf8');
    const entries = await readdir(path.join(ROOT, 'core'), { recursive: true, withFileTypes: true });
    const modules = entries.filter((e) => e.isFile() && e.name.endsWith('.ts') && e.name !== 'index.ts')
      .map((e) => `./${path.relative(path.join(ROOT, 'core'), path.join(e.parentPath, e.name))}`);
    const missing = modules.filter((m) => !index.includes(`from '${m}'`));
    expect(missing, 'add these to core/index.ts').to.deep.equal([]);
  });

  it('lets an embedding service run a use case through the package name with in-memory adapters', async () => {
    const core = await import('nkra');
    const memory = await import('nkra/memory');
    const ids = { n: 0, next() { this.n += 1; return `id-${this.n}`; } };
    const clock = new memory.FixedClock();
    const storage = new memory.InMemoryStorage(ids);
    const passwords = { hash: async (p: string) => `h:${p}`, verify: async (h: string, p: string) => h === `h:${p}` };
    const sessions = { issue: async () => ({ token: 't', expiresAt: clock.now() }), verify: async () => { throw new Error('unused'); } };
    const register = new core.RegisterUser({ storage, passwords, sessions, ids, clock, sessionTtlSeconds: 60 });
    const result = await register.execute({ email: 'Embed@Example.com', password: 'a-good-passphrase', firstName: 'E', lastName: 'M', organizationName: 'Embedded' });
    expect(result.user.email).to.equal('embed@example.com');
    const wallet = await storage.wallets.get(result.organizations[0]!.id);
    expect(wallet?.balance).to.equal(0);
    expect(() => core.parseInput(core.RegisterUserInput, {})).to.throw(core.AppError);
  });
});
