import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** The dashboard build: hosts/web/src -> hosts/web/dist, served by the API host at `/` (hosts/api/middleware/web-app.ts). */
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [react()],
  logLevel: 'warn',
  build: {
    outDir: path.join(import.meta.dirname, 'dist'),
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1200,
  },
  server: {
    // `npm run web:dev`: the API runs on :3000 (npm start); the dev server proxies every non-asset request to it.
    proxy: Object.fromEntries(['/auth', '/organizations', '/messages', '/api-keys', '/templates', '/delivery-logs', '/providers',
      '/contacts', '/segments', '/campaigns', '/events', '/compliance', '/webhook-endpoints', '/analytics', '/billing', '/admin',
      '/openapi.json', '/health'].map((p) => [p, 'http://127.0.0.1:3000'])),
  },
});
