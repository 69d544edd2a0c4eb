/**
 * The dashboard's only way to the server: the public JSON API with the `{ success, data }` /
 * `{ success: false, error: { code, message, details } }` envelope. Every call has a timeout.
 */

export interface FieldErrors { [field: string]: string[] | undefined }

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown>;
  constructor(status: number, code: string, message: string, details: Record<string, unknown>) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
  get fieldErrors(): FieldErrors {
    const fe = this.details['fieldErrors'];
    return fe && typeof fe === 'object' ? (fe as FieldErrors) : {};
  }
  get formErrors(): string[] {
    const fe = this.details['formErrors'];
    return Array.isArray(fe) ? fe.map(String) : [];
  }
}

const TIMEOUT_MS = 20_000;

export interface Credentials { token: string | null; organizationId: string | null }

let credentials: Credentials = { token: null, organizationId: null };
let onUnauthorized: (path: string) => void = () => {};

export function setCredentials(next: Credentials): void { credentials = next; }
export function setUnauthorizedHandler(handler: (path: string) => void): void { onUnauthorized = handler; }

function headers(extra: Record<string, string> = {}): Record<string, string> {
  const h: Record<string, string> = { accept: 'application/json', ...extra };
  if (credentials.token) h['authorization'] = `Bearer ${credentials.token}`;
  if (credentials.organizationId) h['x-organization-id'] = credentials.organizationId;
  return h;
}

async function raw(method: string, path: string, body?: unknown, init: { headers?: Record<string, string>; rawBody?: BodyInit } = {}): Promise<Response> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  try {
    const h = headers(init.headers);
    let payload: BodyInit | undefined = init.rawBody;
    if (body !== undefined) { h['content-type'] = 'application/json'; payload = JSON.stringify(body); }
    return await fetch(path, { method, headers: h, body: payload ?? null, signal: controller.signal });
  } catch (error) {
    if (controller.signal.aborted) throw new ApiError(0, 'TIMEOUT', 'The server did not answer in time. Try again.', {});
    throw new ApiError(0, 'NETWORK_ERROR', 'Could not reach the server. Check your connection and try again.', { cause: String(error) });
  } finally {
    clearTimeout(timer);
  }
}

async function envelope<T>(response: Response, path = ''): Promise<T> {
  let json: unknown = null;
  const text = await response.text();
  try { json = text ? JSON.parse(text) : null; } catch { /* not JSON */ }
  const obj = (json && typeof json === 'object' ? json : {}) as { success?: boolean; data?: unknown; error?: { code?: string; message?: string; details?: Record<string, unknown> } };
  if (response.ok && obj.success !== false) return (obj.data ?? obj) as T;
  const e = obj.error ?? {};
  // Only an ended session signs out: a wrong password or two-factor code (INVALID_CREDENTIALS, INVALID_SECOND_FACTOR) is a form error.
  if (response.status === 401 && credentials.token && (e.code ?? 'UNAUTHORIZED') === 'UNAUTHORIZED') onUnauthorized(path);
  throw new ApiError(response.status, e.code ?? `HTTP_${response.status}`, e.message ?? `The server answered ${response.status}`, e.details ?? {});
}

export const api = {
  get: async <T = unknown>(path: string): Promise<T> => envelope<T>(await raw('GET', path), path),
  post: async <T = unknown>(path: string, body: unknown = {}): Promise<T> => envelope<T>(await raw('POST', path, body), path),
  patch: async <T = unknown>(path: string, body: unknown): Promise<T> => envelope<T>(await raw('PATCH', path, body), path),
  put: async <T = unknown>(path: string, body: unknown): Promise<T> => envelope<T>(await raw('PUT', path, body), path),
  delete: async <T = unknown>(path: string): Promise<T> => envelope<T>(await raw('DELETE', path), path),
  /** multipart/form-data (CSV import): the browser sets the boundary. */
  upload: async <T = unknown>(path: string, form: FormData): Promise<T> => envelope<T>(await raw('POST', path, undefined, { rawBody: form }), path),
  /** A file download (CSV export) through fetch, so the auth headers go along. */
  download: async (path: string): Promise<{ blob: Blob; filename: string; truncated: boolean }> => {
    const response = await raw('GET', path, undefined, { headers: { accept: 'text/csv' } });
    if (!response.ok) await envelope(response, path);
    const disposition = response.headers.get('content-disposition') ?? '';
    const filename = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'export.csv';
    return { blob: await response.blob(), filename, truncated: response.headers.get('x-export-truncated') === 'true' };
  },
};

export { asList, qs } from './format.ts';

/** Paths and methods the server's OpenAPI document offers (features merged later light up by themselves). */
let routes: Promise<Set<string>> | null = null;
export function availableRoutes(): Promise<Set<string>> {
  routes ??= fetch('/openapi.json', { headers: { accept: 'application/json' } })
    .then((r) => r.json() as Promise<{ paths?: Record<string, Record<string, unknown>> }>)
    .then((doc) => {
      const set = new Set<string>();
      for (const [p, ops] of Object.entries(doc.paths ?? {})) for (const m of Object.keys(ops)) set.add(`${m.toUpperCase()} ${p}`);
      return set;
    })
    .catch(() => new Set<string>());
  return routes;
}

/** multipart upload with upload progress (XMLHttpRequest: fetch has no upload progress). */
export function uploadWithProgress<T = unknown>(path: string, form: FormData, onProgress: (loaded: number, total: number) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.timeout = 120_000;
    for (const [k, v] of Object.entries(headers())) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => { if (e.lengthComputable) onProgress(e.loaded, e.total); };
    xhr.onerror = () => reject(new ApiError(0, 'NETWORK_ERROR', 'The upload failed: the server could not be reached.', {}));
    xhr.ontimeout = () => reject(new ApiError(0, 'TIMEOUT', 'The upload timed out.', {}));
    xhr.onload = () => {
      const response = new Response(xhr.responseText, { status: xhr.status, headers: { 'content-type': 'application/json' } });
      envelope<T>(response, path).then(resolve, reject);
    };
    xhr.send(form);
  });
}
