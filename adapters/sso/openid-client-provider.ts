import * as client from 'openid-client';
import { AppError } from '../../core/errors.ts';
import type { OpenIdChecks, OpenIdClientSettings, OpenIdIdentity, OpenIdProvider } from '../../core/ports/openid-provider.ts';
import type { DnsEgressPolicy } from '../egress/dns-egress-policy.ts';

export interface OpenIdClientProviderOptions {
  /** Every request to the tenant's issuer goes through the egress policy (docs/security.md). */
  egress: Pick<DnsEgressPolicy, 'fetch'>;
  /** Bound on each call (discovery, token, UserInfo, keys); default 10 s. */
  timeoutMs?: number;
  /** Allow http:// issuers (development and tests); production requires https. */
  allowHttp?: boolean;
}

/** Why a call to the issuer did not happen (egress refusal, timeout, network), without remote content. */
class EgressFailure extends Error {}

/**
 * The OpenIdProvider port over openid-client 6 (authorization code + PKCE S256, state, nonce). Its HTTP
 * goes through `customFetch` into the egress policy: the issuer's addresses are checked and pinned, no
 * redirects followed, bodies capped, every request bounded by the timeout.
 */
export class OpenIdClientProvider implements OpenIdProvider {
  readonly #options: Required<OpenIdClientProviderOptions>;
  constructor(options: OpenIdClientProviderOptions) {
    this.#options = { timeoutMs: 10_000, allowHttp: false, ...options };
  }

  async authorizationUrl(settings: OpenIdClientSettings, checks: OpenIdChecks): Promise<string> {
    const config = await this.#discover(settings);
    return guarded(async () => client.buildAuthorizationUrl(config, {
      redirect_uri: checks.redirectUri, scope: settings.scopes.join(' '), state: checks.state, nonce: checks.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier), code_challenge_method: 'S256',
    }).href);
  }

  async completeLogin(settings: OpenIdClientSettings, callbackUrl: string, checks: OpenIdChecks): Promise<OpenIdIdentity> {
    const config = await this.#discover(settings);
    return guarded(async () => {
      const tokens = await client.authorizationCodeGrant(config, new URL(callbackUrl), {
        pkceCodeVerifier: checks.codeVerifier, expectedState: checks.state, expectedNonce: checks.nonce, idTokenExpected: true,
      }, { redirect_uri: checks.redirectUri });
      const claims = tokens.claims();
      if (!claims) throw new AppError('SSO_LOGIN_FAILED', 'The identity provider returned no ID token');
      let info: Record<string, unknown> = claims;
      if (typeof claims['email'] !== 'string' && tokens.access_token) {
        info = { ...(await client.fetchUserInfo(config, tokens.access_token, claims.sub)), ...claims };
      }
      const text = (key: string) => (typeof info[key] === 'string' ? info[key] : null);
      const verified = info['email_verified'];
      return {
        subject: claims.sub, email: text('email')?.toLowerCase() ?? null, emailVerified: typeof verified === 'boolean' ? verified : null,
        givenName: text('given_name'), familyName: text('family_name'),
      };
    });
  }

  async #discover(settings: OpenIdClientSettings): Promise<client.Configuration> {
    const issuer = URL.canParse(settings.issuerUrl) ? new URL(settings.issuerUrl) : null;
    if (!issuer) throw unavailable('the issuer URL is not a URL');
    if (issuer.protocol !== 'https:' && !(this.#options.allowHttp && issuer.protocol === 'http:')) throw unavailable('the issuer must use https');
    return guarded(() => client.discovery(issuer, settings.clientId, { client_secret: settings.clientSecret }, client.ClientSecretBasic(settings.clientSecret), {
      [client.customFetch]: this.#fetch, timeout: Math.ceil(this.#options.timeoutMs / 1000),
      ...(issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : {}),
    }));
  }

  readonly #fetch: client.CustomFetch = async (url, options) => {
    const headers: Record<string, string> = { ...options.headers };
    const body = options.body === undefined || options.body === null ? undefined : typeof options.body === 'string' ? options.body
      : options.body instanceof URLSearchParams ? options.body.toString() : undefined;
    const outcome = await this.#options.egress.fetch(url, { method: options.method, headers, ...(body === undefined ? {} : { body }), timeoutMs: this.#options.timeoutMs, maxBodyBytes: 512 * 1024 }, null);
    if (outcome.kind === 'refused') throw new EgressFailure(`refused by the egress policy: ${outcome.refusal.reason}`);
    if (outcome.kind === 'timeout') throw new EgressFailure(`no answer within ${this.#options.timeoutMs} ms`);
    if (outcome.kind === 'network') throw new EgressFailure(`network error ${outcome.code}`);
    const { status, headers: answerHeaders, body: answer } = outcome.response;
    if (status < 200 || status > 599) throw new EgressFailure(`unexpected HTTP status ${status}`);
    return new Response([204, 205, 304].includes(status) ? null : new Uint8Array(answer), { status, headers: answerHeaders });
  };
}

function unavailable(reason: string): AppError {
  return new AppError('SSO_PROVIDER_UNAVAILABLE', `The identity provider could not be reached: ${reason}`, { reason }, { retryable: true });
}

/** Runs an openid-client call and turns its failures into the port's errors. */
async function guarded<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof client.AuthorizationResponseError) {
      throw new AppError('SSO_LOGIN_FAILED', `The identity provider refused the sign-in: ${error.error}`, { error: error.error });
    }
    if (error instanceof client.ResponseBodyError) {
      throw new AppError('SSO_LOGIN_FAILED', `The identity provider refused the code: ${error.error}`, { error: error.error });
    }
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof EgressFailure) throw unavailable(cause.message);
    if (error instanceof client.ClientError) {
      const claim = (cause as { cause?: { claim?: unknown } } | undefined)?.cause?.claim;
      if (claim === 'nonce') throw new AppError('SSO_STATE_MISMATCH', 'The ID token was not issued for this sign-in (nonce mismatch); start again');
      if (error.code === 'OAUTH_TIMEOUT' || error.code === 'OAUTH_ABORT') throw unavailable('timed out');
      if (error.code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' || error.code === 'OAUTH_RESPONSE_IS_NOT_JSON' || error.code === 'OAUTH_HTTP_REQUEST_FORBIDDEN') throw unavailable(error.message);
      throw new AppError('SSO_LOGIN_FAILED', `The identity provider's answer did not validate: ${error.message}`, { error: error.code ?? 'invalid_response' });
    }
    if (error instanceof TypeError) throw unavailable(error.message);
    throw error;
  }
}
