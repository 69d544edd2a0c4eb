// Send one SMS with a sandbox key: NKRA_API_KEY=nk_test_... node examples/send.mjs (after npm run build)
import { NkraClient, NkraError } from '../dist/index.js';

const nkra = new NkraClient({ apiKey: process.env.NKRA_API_KEY, baseUrl: process.env.NKRA_BASE_URL ?? 'http://localhost:3000' });
try {
  const log = await nkra.send({ channel: 'SMS', to: process.env.NKRA_TO ?? '+233241234567', body: 'Your order has shipped' });
  console.log(log.status, log.id, log.errorCode ?? '');
} catch (error) {
  if (!(error instanceof NkraError)) throw error;
  console.error('failed:', error.code, error.status, error.fieldErrors);
  process.exitCode = 1;
}
