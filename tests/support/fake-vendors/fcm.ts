import { generateKeyPairSync, verify, type KeyObject } from 'node:crypto';
import { startFakeServer, type FakeReply, type FakeServer, type Outcome, type ReceivedRequest } from './ghana-sms-fake-server.ts';

export type { Outcome, ReceivedRequest } from './ghana-sms-fake-server.ts';

export interface TestServiceAccount {
  /** The JSON key file's text, with `token_uri` pointing at the fake OAuth server. */
  json: string;
  clientEmail: string;
  privateKeyPem: string;
  publicKey: KeyObject;
  projectId: string;
}

export interface FakeFcm extends FakeServer {
  /** The fake OAuth token endpoint (the service account's token_uri). */
  tokenUri: string;
  /** Requests to the token endpoint. */
  tokenRequests: ReceivedRequest[];
  /** Queues an outcome for the next token request. */
  scriptToken(next: Outcome): void;
  /** Access tokens issued and still honoured. */
  validTokens: Set<string>;
  /** Simulates expiry: every issued access token is refused from now on (401 UNAUTHENTICATED). */
  expireTokens(): void;
}

/** An RSA service account for tests; `tokenUri` is filled in once the fake runs. */
export function makeTestServiceAccount(tokenUri: string, overrides: Partial<{ projectId: string; clientEmail: string; keyPair: { privateKey: KeyObject; publicKey: KeyObject } }> = {}): TestServiceAccount {
  const pair = overrides.keyPair ?? generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privateKeyPem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const projectId = overrides.projectId ?? 'nkra-test';
  const clientEmail = overrides.clientEmail ?? `firebase-adminsdk@${projectId}.iam.gserviceaccount.com`;
  const json = JSON.stringify({
    type: 'service_account', project_id: projectId, private_key_id: 'key-1', private_key: privateKeyPem, client_email: clientEmail,
    client_id: '1234567890', token_uri: tokenUri,
  });
  return { json, clientEmail, privateKeyPem, publicKey: pair.publicKey, projectId };
}

/** FCM's error envelope with an FcmError detail (and a BadRequest field violation when `field` is given). */
export function fcmError(httpStatus: number, status: string, errorCode: string | null, message: string, field?: string): unknown {
  const details: unknown[] = [];
  if (errorCode) details.push({ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode });
  if (field) details.push({ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field, description: message }] });
  return { error: { code: httpStatus, message, status, details } };
}

/**
 * A local Google OAuth token endpoint and FCM HTTP v1 (two servers, as in reality, each with its own
 * script queue). The token endpoint checks the JWT-bearer assertion: RS256 signature against the
 * service account's public key, iss, aud, scope and a lifetime of at most one hour.
 */
export async function startFakeFcm(account: { clientEmail: string; publicKey: KeyObject; projectId: string; keyId?: string }, options: { tokenLifetimeSeconds?: number } = {}): Promise<FakeFcm> {
  const validTokens = new Set<string>();
  let issued = 0;
  let tokenUri = '';

  const handleToken = (request: ReceivedRequest): FakeReply => {
    const form = new URLSearchParams(request.body);
    if (request.method !== 'POST' || request.path !== '/token') return { status: 404, body: { error: 'not_found' } };
    if (!String(request.headers['content-type']).startsWith('application/x-www-form-urlencoded')) return invalidGrant('form body expected');
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return { status: 400, body: { error: 'unsupported_grant_type', error_description: 'Invalid grant_type' } };
    const problem = checkAssertion(form.get('assertion') ?? '', account, tokenUri);
    if (problem) return invalidGrant(problem);
    issued += 1;
    const token = `ya29.fake-access-token-${issued}`;
    validTokens.add(token);
    return { status: 200, body: { access_token: token, expires_in: options.tokenLifetimeSeconds ?? 3599, token_type: 'Bearer' } };
  };

  const handleSend = (request: ReceivedRequest): FakeReply => {
    if (request.method !== 'POST' || request.path !== `/v1/projects/${account.projectId}/messages:send`) {
      return { status: 404, body: fcmError(404, 'NOT_FOUND', null, 'Requested entity was not found.') };
    }
    const bearer = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!validTokens.has(bearer)) {
      return { status: 401, body: fcmError(401, 'UNAUTHENTICATED', null, 'Request had invalid authentication credentials. Expected OAuth 2 access token.') };
    }
    const message = ((request.json ?? {}) as { message?: { token?: unknown; notification?: { body?: unknown }; data?: Record<string, unknown> } }).message;
    if (typeof message?.token !== 'string' || message.token === '') {
      return { status: 400, body: fcmError(400, 'INVALID_ARGUMENT', 'INVALID_ARGUMENT', 'The registration token is not a valid FCM registration token', 'message.token') };
    }
    if (message.data && Object.values(message.data).some((v) => typeof v !== 'string')) {
      return { status: 400, body: fcmError(400, 'INVALID_ARGUMENT', 'INVALID_ARGUMENT', 'Invalid value at message.data: values must be strings', 'message.data') };
    }
    return { status: 200, body: { name: `projects/${account.projectId}/messages/0:${Date.now()}%31bd1c9631bd1c96` } };
  };

  const oauth = await startFakeServer({ handle: handleToken, errorBody: (status) => ({ error: status >= 500 ? 'internal_failure' : 'invalid_grant', error_description: `HTTP ${status}` }) });
  tokenUri = `${oauth.url}/token`;
  const fcm = await startFakeServer({
    handle: handleSend,
    errorBody: (status) => status === 429 ? fcmError(429, 'RESOURCE_EXHAUSTED', 'QUOTA_EXCEEDED', 'Quota exceeded.')
      : status >= 500 ? fcmError(status, 'UNAVAILABLE', 'UNAVAILABLE', 'The service is currently unavailable.')
        : fcmError(404, 'NOT_FOUND', 'UNREGISTERED', 'Requested entity was not found.'),
  });

  return {
    ...fcm,
    tokenUri,
    tokenRequests: oauth.received,
    scriptToken: (next) => oauth.script(next),
    validTokens,
    expireTokens: () => validTokens.clear(),
    close: async () => { await Promise.all([fcm.close(), oauth.close()]); },
  };
}

function invalidGrant(description: string): FakeReply {
  return { status: 400, body: { error: 'invalid_grant', error_description: description } };
}

/** Why Google would refuse the assertion, or null when it is good. */
function checkAssertion(assertion: string, account: { clientEmail: string; publicKey: KeyObject; keyId?: string }, tokenUri: string): string | null {
  const [header, claims, signature] = assertion.split('.');
  if (!header || !claims || !signature) return 'Invalid JWT: malformed';
  const signedOk = verify('RSA-SHA256', Buffer.from(`${header}.${claims}`), account.publicKey, Buffer.from(signature, 'base64url'));
  if (!signedOk) return 'Invalid JWT Signature.';
  const head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as Record<string, unknown>;
  const body = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as Record<string, unknown>;
  if (head['alg'] !== 'RS256' || head['typ'] !== 'JWT') return 'Invalid JWT header';
  if (account.keyId && head['kid'] !== account.keyId) return 'Invalid JWT: unknown key id';
  if (body['iss'] !== account.clientEmail) return 'Invalid JWT: iss is not the service account';
  if (body['aud'] !== tokenUri) return 'Invalid JWT: aud is not the token endpoint';
  const scopes = String(body['scope'] ?? '').split(' ');
  if (!scopes.includes('https://www.googleapis.com/auth/firebase.messaging') && !scopes.includes('https://www.googleapis.com/auth/cloud-platform')) return 'Invalid JWT: scope';
  const iat = Number(body['iat']);
  const exp = Number(body['exp']);
  const now = Date.now() / 1000;
  if (!Number.isFinite(iat) || !Number.isFinite(exp) || exp <= iat || exp - iat > 3600) return 'Invalid JWT: lifetime over one hour';
  if (iat > now + 300 || exp < now - 300) return 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values';
  return null;
}
