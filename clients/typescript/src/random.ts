/** The part of Web Crypto's SubtleCrypto the client uses (HMAC-SHA256), typed without the DOM library. */
export interface SubtleLike {
  importKey(format: 'raw', keyData: Uint8Array, algorithm: { name: 'HMAC'; hash: 'SHA-256' }, extractable: boolean, usages: Array<'sign' | 'verify'>): Promise<unknown>;
  sign(algorithm: 'HMAC', key: unknown, data: Uint8Array): Promise<ArrayBuffer>;
  verify(algorithm: 'HMAC', key: unknown, signature: Uint8Array, data: Uint8Array): Promise<boolean>;
}

interface CryptoLike { randomUUID?: () => string; getRandomValues?: <T extends Uint8Array>(array: T) => T; subtle?: SubtleLike }

let nodeCrypto: Promise<CryptoLike | null> | null = null;

/** Web Crypto: global in browsers, edge runtimes and Node 19+; Node 18 gets it from node:crypto. */
export async function webCrypto(): Promise<CryptoLike> {
  const global = (globalThis as { crypto?: CryptoLike }).crypto;
  if (global?.subtle && global.getRandomValues) return global;
  nodeCrypto ??= (async () => {
    try {
      const specifier = 'node:crypto'; // not a literal import: bundlers for browsers leave it alone
      const mod = (await import(specifier)) as { webcrypto?: CryptoLike };
      return mod.webcrypto ?? null;
    } catch {
      return null;
    }
  })();
  const fallback = await nodeCrypto;
  if (!fallback) throw new Error('Web Crypto is not available in this runtime');
  return fallback;
}

/** A random idempotency key (UUID v4 layout). */
export async function newIdempotencyKey(): Promise<string> {
  const crypto = await webCrypto();
  if (crypto.randomUUID) return `nkc-${crypto.randomUUID()}`;
  const bytes = crypto.getRandomValues!(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `nkc-${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
