import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export type VerifyWebhook = (rawBody: Buffer | string, headers: Record<string, unknown>, secrets: string[]) => unknown;

/** The receiver's verification snippet, extracted from docs/webhooks.md and evaluated as a receiver would paste it (CommonJS). */
export function docSnippetVerifier(): VerifyWebhook {
  const doc = readFileSync(path.resolve(import.meta.dirname, '../../docs/webhooks.md'), 'utf8');
  const block = /```js\n([\s\S]*?function verifyNkraWebhook[\s\S]*?)```/.exec(doc)?.[1];
  if (!block) throw new Error('docs/webhooks.md has no ```js block defining verifyNkraWebhook');
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return new Function('require', `${block}\nreturn verifyNkraWebhook;`)(createRequire(import.meta.url)) as VerifyWebhook;
}
