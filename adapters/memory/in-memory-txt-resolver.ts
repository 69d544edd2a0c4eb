import type { TxtResolver } from '../../core/ports/txt-resolver.ts';

/** TXT records held in memory (unit tests and embedding teams); `unavailable` makes every lookup fail as a timeout would. */
export class InMemoryTxtResolver implements TxtResolver {
  readonly records = new Map<string, string[]>();
  unavailable = false;

  set(name: string, values: string[]): void { this.records.set(name.toLowerCase(), values); }

  async resolveTxt(name: string): Promise<string[] | null> {
    if (this.unavailable) return null;
    return [...(this.records.get(name.toLowerCase()) ?? [])];
  }
}
