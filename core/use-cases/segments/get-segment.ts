import { AppError } from '../../errors.ts';
import { segmentView } from '../../domain/segment.ts';
import type { Storage } from '../../ports/storage.ts';
import { segmentSize } from './list-segments.ts';

/** GET /segments/{id}: the segment with its live contact count. NOT_FOUND for another organization's. */
export class GetSegment {
  readonly #deps: { storage: Pick<Storage, 'segments' | 'contacts'> };
  constructor(deps: { storage: Pick<Storage, 'segments' | 'contacts'> }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, id: string) {
    const segment = await this.#deps.storage.segments.findById(scope.organizationId, id);
    if (!segment) throw new AppError('NOT_FOUND', 'Segment not found');
    return segmentView(segment, await segmentSize(this.#deps.storage.contacts, segment));
  }
}
