import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface IdpAccount { email: string; emailVerified?: boolean; givenName?: string; familyName?: string }

export interface LocalOidcProvider {
  /** The issuer, `http://127.0.0.1:<port>`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The accounts the provider signs in, by the login typed at its sign-in form (an email). */
  accounts: Map<string, IdpAccount>;
  /**
   * Follows an authorization URL the way a browser would (cookies, redirects), signs in as `login` at the
   * provider's form, and answers the URL the provider finally sends the browser back to (the redirect URI
   * with `code`, `state`, `iss`, or an `error`).
   */
  signIn(authorizationUrl: string, login: string): Promise<URL>;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (oidc-provider 9) in process on an ephemeral port, for the single sign-on tests:
 * one confidential client (client_secret_basic, PKCE required), accounts from a map, a plain HTML sign-in
 * form at /interaction/:uid (no password: the login names the account), consent granted automatically.
 */
export async function startLocalOidcProvider(redirectUris: string[]): Promise<LocalOidcProvider> {
  const accounts = new Map<string, IdpAccount>();
  const clientId = 'nkra-dashboard';
  const clientSecret = 'local-idp-client-secret-0123456789';
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: redirectUris, grant_types: ['authorization_code'], response_types: ['code'] }],
    cookies: { keys: ['local-idp-cookie-key-0123456789'] },
    jwks: { keys: [{ ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), kid: 'local', use: 'sig', alg: 'RS256' }] },
    ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    renderError: async (ctx, out) => { ctx.type = 'text/plain'; ctx.body = `error: ${String(out['error'])}`; },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    findAccount: async (_ctx, id) => {
      const account = accounts.get(id);
      if (!account) return undefined;
      return {
        accountId: id,
        claims: async () => ({
          sub: id, email: account.email, email_verified: account.emailVerified ?? true,
          ...(account.givenName ? { given_name: account.givenName } : {}), ...(account.familyName ? { family_name: account.familyName } : {}),
        }),
      };
    },
    // First-party test client: consent is granted for whatever it asked.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope(String(ctx.oidc.params!['scope'] ?? 'openid'));
      await grant.save();
      return grant;
    },
  });
  const handle = provider.callback();
  server.on('request', (req, res) => {
    const match = /^\/interaction\/([^/?]+)/.exec(req.url ?? '');
    if (!match) { handle(req, res); return; }
    interaction(provider, req, res).catch((error: unknown) => { res.statusCode = 500; res.end(String(error)); });
  });
  return {
    issuer, clientId, clientSecret, accounts,
    signIn: (authorizationUrl, login) => browse(issuer, authorizationUrl, login),
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** The sign-in form (GET) and its submission (POST login=...). */
async function interaction(provider: Provider, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (req.method === 'POST') {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const login = new URLSearchParams(Buffer.concat(chunks).toString('utf8')).get('login') ?? '';
    await provider.interactionFinished(req, res, { login: { accountId: login.trim().toLowerCase() } }, { mergeWithLastSubmission: false });
    return;
  }
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.end(`<!doctype html><html><head><title>Local identity provider</title></head><body><h1>Sign in to the local identity provider</h1>
    <form method="post" action="/interaction/${details.uid}"><label>Email <input name="login" type="email" autofocus></label>
    <button type="submit">Continue</button></form></body></html>`);
}

/** A browser without JavaScript: a cookie jar and manual redirects, stopping at the first URL outside the issuer. */
async function browse(issuer: string, start: string, login: string): Promise<URL> {
  const jar = new Map<string, string>();
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      jar.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
    }
  };
  let url = new URL(start);
  let post: string | null = null;
  for (let hop = 0; hop < 15; hop++) {
    if (url.origin !== new URL(issuer).origin) return url;
    const response = await fetch(url, {
      method: post === null ? 'GET' : 'POST', redirect: 'manual', signal: AbortSignal.timeout(5_000),
      headers: { cookie: cookie(), ...(post === null ? {} : { 'content-type': 'application/x-www-form-urlencoded' }) }, ...(post === null ? {} : { body: post }),
    });
    keep(response);
    post = null;
    const location = response.headers.get('location');
    if (location) { url = new URL(location, url); continue; }
    const body = await response.text();
    if (response.status === 200 && body.includes('name="login"')) { post = new URLSearchParams({ login }).toString(); continue; }
    throw new Error(`the identity provider answered ${response.status}: ${body.slice(0, 300)}`);
  }
  throw new Error('too many redirects at the identity provider');
}
