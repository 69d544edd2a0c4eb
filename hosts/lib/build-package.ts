/**
 * `npm run build:lib`: the core as an installable library in dist/lib (docs/adr/0041-library-packaging.md).
 * Compiles core/ and adapters/memory/ to JavaScript with declarations (tsconfig.build.json), then writes the
 * package's own package.json (name `nkra`, the root's version, only the core's runtime dependencies), its
 * README and the LICENSE. `npm run pack:lib` packs that directory; the repository root stays the private service.
 */
import { execFileSync } from 'node:child_process';
import { copyFile, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** dist/lib, or the directory given as the first argument (tests build into a temporary one). */
const OUT = path.resolve(process.argv[2] ?? path.join(ROOT, 'dist/lib'));
/** What core/ and adapters/memory/ import at run time (tests/process/library-package.test.ts proves it is enough). */
export const LIBRARY_DEPENDENCIES = ['valibot', 'libphonenumber-js'] as const;

const root = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as {
  version: string; description: string; license: string; dependencies: Record<string, string>;
};

if (ROOT.startsWith(OUT)) throw new Error(`refusing to build into ${OUT}: it holds the repository`);
await rm(OUT, { recursive: true, force: true });
const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.build.json'), '--outDir', OUT], { stdio: 'inherit' });

const entry = (dir: string) => ({ types: `./${dir}/index.d.ts`, default: `./${dir}/index.js` });
const manifest = {
  name: 'nkra',
  version: root.version,
  description: 'Nkra core: the notification service\'s use cases, domain rules and ports, with in-memory adapters',
  license: root.license,
  type: 'module',
  exports: { '.': entry('core'), './memory': entry('adapters/memory'), './package.json': './package.json' },
  types: './core/index.d.ts',
  files: ['core', 'adapters', 'README.md', 'LICENSE'],
  sideEffects: false,
  engines: { node: '>=20' },
  dependencies: Object.fromEntries(LIBRARY_DEPENDENCIES.map((name) => {
    const version = root.dependencies[name];
    if (!version) throw new Error(`${name} is not a dependency of the root package.json`);
    return [name, version];
  })),
};
await writeFile(path.join(OUT, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
await copyFile(path.join(import.meta.dirname, 'README.md'), path.join(OUT, 'README.md'));
await copyFile(path.join(ROOT, 'LICENSE'), path.join(OUT, 'LICENSE'));
console.log(`nkra: library ${root.version} built into ${OUT}`);
