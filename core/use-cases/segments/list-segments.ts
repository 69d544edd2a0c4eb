import { segmentView, type Segment } from '../../domain/segment.ts';
import type { ContactRepository } from '../../ports/contact-repository.ts';
import type { Storage } from '../../ports/storage.ts';

export const SEGMENTS_LISTED_MAX = 50;
const COUNTS_IN_PARALLEL = 4;

/** The live size of a segment: matching contacts now (dynamic), or the frozen members still present (static). */
export function segmentSize(contacts: ContactRepository, segment: Segment): Promise<number> {
  return segment.isDynamic
    ? contacts.count(segment.organizationId, { rule: segment.rules, memberOf: null })
    : contacts.count(segment.organizationId, { rule: { all: [] }, memberOf: segment.id });
}

/** GET /segments: newest first, at most {@link SEGMENTS_LISTED_MAX}, each with its live contact count. */
export class ListSegments {
  readonly #deps: { storage: Pick<Storage, 'segments' | 'contacts'> };
  constructor(deps: { storage: Pick<Storage, 'segments' | 'contacts'> }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }) {
    const segments = await this.#deps.storage.segments.list(scope.organizationId, SEGMENTS_LISTED_MAX);
    const views: Array<ReturnType<typeof segmentView>> = [];
    // A few counts at a time: each may scan a large organization's contacts.
    for (let i = 0; i < segments.length; i += COUNTS_IN_PARALLEL) {
      const group = segments.slice(i, i + COUNTS_IN_PARALLEL);
      const sizes = await Promise.all(group.map((segment) => segmentSize(this.#deps.storage.contacts, segment)));
      group.forEach((segment, j) => views.push(segmentView(segment, sizes[j]!)));
    }
    return views;
  }
}
