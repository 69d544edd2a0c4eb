import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * A software WebAuthn authenticator for HTTP tests (the browser tests use Chromium's virtual authenticator):
 * answers creation and request options the way a browser with a P-256 platform authenticator would ("none"
 * attestation, ES256 signatures), so @simplewebauthn/server verifies real ceremonies without a browser.
 */
export class SoftAuthenticator {
  readonly credentialId = randomBytes(16);
  readonly #key: { privateKey: KeyObject; publicKey: KeyObject };
  #counter = 0;
  readonly #origin: string;
  constructor(origin: string) {
    this.#origin = origin;
    this.#key = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  }

  get id(): string { return this.credentialId.toString('base64url'); }

  /** The browser's JSON answer to `navigator.credentials.create` with these options. */
  create(options: { challenge: string; rp: { id: string } }) {
    const jwk = this.#key.publicKey.export({ format: 'jwk' }) as { x: string; y: string };
    const cose = cbor(new Map<number, unknown>([[1, 2], [3, -7], [-1, 1], [-2, Buffer.from(jwk.x, 'base64url')], [-3, Buffer.from(jwk.y, 'base64url')]]));
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([rpIdHash(options.rp.id), Buffer.from([0x45]), Buffer.alloc(4), Buffer.alloc(16), idLength, this.credentialId, cose]);
    const attestationObject = cbor(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]));
    return {
      id: this.id, rawId: this.id, type: 'public-key', authenticatorAttachment: 'platform', clientExtensionResults: {},
      response: { clientDataJSON: this.#clientData('webauthn.create', options.challenge).toString('base64url'), attestationObject: attestationObject.toString('base64url'), transports: ['internal'] },
    };
  }

  /** The browser's JSON answer to `navigator.credentials.get` with these options (`signWith` forges the signature). */
  get(options: { challenge: string; rpId: string }, signWith: KeyObject = this.#key.privateKey) {
    this.#counter += 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.#counter);
    const authenticatorData = Buffer.concat([rpIdHash(options.rpId), Buffer.from([0x05]), counter]);
    const clientData = this.#clientData('webauthn.get', options.challenge);
    const signature = sign('sha256', Buffer.concat([authenticatorData, createHash('sha256').update(clientData).digest()]), signWith);
    return {
      id: this.id, rawId: this.id, type: 'public-key', authenticatorAttachment: 'platform', clientExtensionResults: {},
      response: { clientDataJSON: clientData.toString('base64url'), authenticatorData: authenticatorData.toString('base64url'), signature: signature.toString('base64url') },
    };
  }

  #clientData(type: string, challenge: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.#origin, crossOrigin: false }));
  }
}

const rpIdHash = (rpId: string) => createHash('sha256').update(rpId).digest();

/** Enough CBOR (RFC 8949) for attestation objects and COSE keys: integers, byte and text strings, maps. */
function cbor(value: unknown): Buffer {
  const head = (major: number, n: number): Buffer => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 256) return Buffer.from([(major << 5) | 24, n]);
    const b = Buffer.alloc(3); b[0] = (major << 5) | 25; b.writeUInt16BE(n, 1); return b;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') { const s = Buffer.from(value, 'utf8'); return Buffer.concat([head(3, s.length), s]); }
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  if (value instanceof Map) return Buffer.concat([head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
  throw new Error(`cbor: cannot encode ${typeof value}`);
}
