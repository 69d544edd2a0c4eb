export interface Credentials {
  token?: string;
  organizationId?: string;
  apiKey?: string;
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** A small fetch wrapper for HTTP tests: JSON in, parsed JSON (or text) out, 5 s timeout unless told otherwise. */
export class ApiClient {
  readonly baseUrl: string;
  readonly #timeoutMs: number;
  constructor(baseUrl: string, timeoutMs = 5_000) { this.baseUrl = baseUrl; this.#timeoutMs = timeoutMs; }

  get<T = any>(path: string, auth: Credentials = {}, headers: Record<string, string> = {}) { return this.request<T>('GET', path, undefined, auth, headers); }
  post<T = any>(path: string, body?: unknown, auth: Credentials = {}, headers: Record<string, string> = {}) { return this.request<T>('POST', path, body, auth, headers); }
  patch<T = any>(path: string, body?: unknown, auth: Credentials = {}) { return this.request<T>('PATCH', path, body, auth); }
  put<T = any>(path: string, body?: unknown, auth: Credentials = {}) { return this.request<T>('PUT', path, body, auth); }
  delete<T = any>(path: string, auth: Credentials = {}) { return this.request<T>('DELETE', path, undefined, auth); }

  async request<T = any>(method: string, path: string, body: unknown, auth: Credentials = {}, extraHeaders: Record<string, string> = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...extraHeaders };
    if (body !== undefined && typeof body !== 'string') headers['content-type'] ??= 'application/json';
    if (auth.token) headers['authorization'] = `Bearer ${auth.token}`;
    if (auth.organizationId) headers['x-organization-id'] = auth.organizationId;
    if (auth.apiKey) headers['x-api-key'] = auth.apiKey;
    const response = await fetch(`${this.baseUrl}${path}`, {
      method, headers, body: body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body), signal: AbortSignal.timeout(this.#timeoutMs),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try { parsed = JSON.parse(text); } catch { /* not JSON: keep the text */ }
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }
}
