/**
 * `npm run build:web` and the `prepare` step of `npm ci` / `npm install`: builds the dashboard into hosts/web/dist.
 * When the build tools are absent (an install with --omit=dev) it says so and leaves the API to run without the dashboard.
 */
import path from 'node:path';

let vite: typeof import('vite');
try {
  vite = await import('vite');
} catch {
  console.warn('nkra: vite is not installed (dev dependencies omitted?); the dashboard was not built. The API works without it.');
  process.exit(0);
}
await vite.build({ configFile: path.join(import.meta.dirname, 'vite.config.ts'), logLevel: 'warn' });
console.log('nkra: dashboard built into hosts/web/dist');
