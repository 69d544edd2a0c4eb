import { Resolver } from 'node:dns/promises';
import type { TxtResolver } from '../../core/ports/txt-resolver.ts';

export interface NodeDnsTxtResolverOptions {
  /** DNS_SERVERS: `ip` or `ip:port` entries to ask instead of the system's resolvers (a local server in tests). */
  servers?: readonly string[];
  /** Bound on one lookup, retries included; default 5 s. */
  timeoutMs?: number;
}

const NO_ANSWER = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME', 'NXDOMAIN']);

/** TXT lookups over node's c-ares resolver, each bounded by a timeout (node's own per-try timeout, plus an overall one). */
export class NodeDnsTxtResolver implements TxtResolver {
  readonly #resolver: Resolver;
  readonly #timeoutMs: number;

  constructor(options: NodeDnsTxtResolverOptions = {}) {
    this.#timeoutMs = options.timeoutMs ?? 5_000;
    this.#resolver = new Resolver({ timeout: Math.max(100, Math.floor(this.#timeoutMs / 2)), tries: 2 });
    if (options.servers && options.servers.length > 0) this.#resolver.setServers([...options.servers]);
  }

  async resolveTxt(name: string): Promise<string[] | null> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => { timer = setTimeout(() => resolve(null), this.#timeoutMs); });
    const lookup = this.#resolver.resolveTxt(name).then(
      (records) => records.map((chunks) => chunks.join('')),
      (error: NodeJS.ErrnoException) => (NO_ANSWER.has(error.code ?? '') ? [] : null),
    );
    try {
      return await Promise.race([lookup, timeout]);
    } finally {
      clearTimeout(timer);
      if (timer) this.#resolver.cancel();
    }
  }
}
