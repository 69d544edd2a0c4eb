/** The part of oidc-provider 9 the local identity provider uses (the package ships no types; @types/oidc-provider is not installed). */
declare module 'oidc-provider' {
  import type http from 'node:http';

  interface GrantInstance { addOIDCScope(scope: string): void; save(): Promise<string> }
  interface GrantClass { new (init: { clientId: string; accountId: string }): GrantInstance; find(id: string): Promise<GrantInstance | undefined> }
  interface OidcContext {
    oidc: {
      result?: { consent?: { grantId?: string } };
      session?: { grantIdFor(clientId: string): string | undefined; accountId?: string };
      client?: { clientId: string };
      params?: Record<string, unknown>;
      provider: { Grant: GrantClass };
    };
  }
  interface Account { accountId: string; claims(): Promise<Record<string, unknown>> }

  export default class Provider {
    constructor(issuer: string, configuration: {
      clients: Array<Record<string, unknown>>;
      cookies?: { keys: string[] };
      jwks?: { keys: Array<Record<string, unknown>> };
      ttl?: Record<string, number>;
      renderError?: (ctx: { type: string; body: unknown }, out: Record<string, unknown>) => Promise<void>;
      claims?: Record<string, string[]>;
      pkce?: { required: () => boolean };
      features?: Record<string, { enabled: boolean }>;
      findAccount: (ctx: OidcContext, id: string) => Promise<Account | undefined>;
      loadExistingGrant?: (ctx: OidcContext) => Promise<GrantInstance | undefined>;
    });
    callback(): (req: http.IncomingMessage, res: http.ServerResponse) => void;
    interactionDetails(req: http.IncomingMessage, res: http.ServerResponse): Promise<{ uid: string; prompt: { name: string } }>;
    interactionFinished(req: http.IncomingMessage, res: http.ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<void>;
  }
}
