import http from 'node:http';

export interface SseEvent { event: string; id: string | null; data: string }

/** A minimal Server-Sent Events client over node:http (tests and the inbox benchmark). */
export class SseClient {
  readonly events: SseEvent[] = [];
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  /** The body when the server refused the stream (not 200). */
  readonly body: string;
  readonly #req: http.ClientRequest;
  readonly #waiters = new Set<() => void>();
  onEvent: ((event: SseEvent) => void) | null = null;

  private constructor(req: http.ClientRequest, res: http.IncomingMessage, body: string) {
    this.#req = req;
    this.status = res.statusCode ?? 0;
    this.headers = res.headers;
    this.body = body;
    if (this.status !== 200) return;
    let buffer = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = parseBlock(block);
        if (!event) continue;
        this.events.push(event);
        this.onEvent?.(event);
        for (const wake of this.#waiters) wake();
      }
    });
  }

  static open(url: string, headers: Record<string, string> = {}, agent?: http.Agent): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const req = http.get(url, { headers: { accept: 'text/event-stream', ...headers }, ...(agent ? { agent } : {}) }, (res) => {
        if (res.statusCode === 200) { resolve(new SseClient(req, res, '')); return; }
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => { body += c; });
        res.on('end', () => resolve(new SseClient(req, res, body)));
      });
      req.on('error', reject);
    });
  }

  /** Resolves with the first event (from the start) matching, or rejects after `timeoutMs`. */
  waitFor(match: (event: SseEvent) => boolean, timeoutMs = 5_000): Promise<SseEvent> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.events.find(match);
        if (!found) return false;
        cleanup(); resolve(found); return true;
      };
      const timer = setTimeout(() => { cleanup(); reject(new Error(`no matching event in ${timeoutMs} ms; got ${JSON.stringify(this.events.map((e) => e.event))}`)); }, timeoutMs);
      const cleanup = () => { clearTimeout(timer); this.#waiters.delete(wake); };
      const wake = () => { check(); };
      if (!check()) this.#waiters.add(wake);
    });
  }

  close(): void { this.#req.destroy(); }
}

function parseBlock(block: string): SseEvent | null {
  let event = 'message';
  let id: string | null = null;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':') || line === '') continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'id') id = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0) return null;
  return { event, id, data: data.join('\n') };
}
