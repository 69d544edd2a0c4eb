import type { Container } from 'inversify';
import { CreateSegment } from '../../../core/use-cases/segments/create-segment.ts';
import { GetSegment } from '../../../core/use-cases/segments/get-segment.ts';
import { ListSegments } from '../../../core/use-cases/segments/list-segments.ts';
import { PreviewSegment } from '../../../core/use-cases/segments/preview-segment.ts';
import { INFRA } from '../../tokens.ts';
import { segmentRoutes } from '../routes/segment-routes.ts';
import { API } from '../tokens.ts';

/** Segments: rule-based audiences over contacts. */
export function bindSegmentsModule(container: Container): void {
  container.bind(API.routes).toResolvedValue(
    (storage, ids, clock) => segmentRoutes({
      createSegment: new CreateSegment({ storage, ids, clock }),
      listSegments: new ListSegments({ storage }),
      getSegment: new GetSegment({ storage }),
      previewSegment: new PreviewSegment({ storage }),
    }),
    [INFRA.storage, INFRA.ids, INFRA.clock]).inSingletonScope();
}
