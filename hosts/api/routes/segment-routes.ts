import { CreateSegmentInput, type CreateSegment } from '../../../core/use-cases/segments/create-segment.ts';
import type { GetSegment } from '../../../core/use-cases/segments/get-segment.ts';
import { SEGMENTS_LISTED_MAX, type ListSegments } from '../../../core/use-cases/segments/list-segments.ts';
import { PreviewSegmentInput, type PreviewSegment } from '../../../core/use-cases/segments/preview-segment.ts';
import { ok, requireTenant, type RouteDefinition } from '../route.ts';

export interface SegmentRouteDeps {
  createSegment: CreateSegment;
  listSegments: ListSegments;
  getSegment: GetSegment;
  previewSegment: PreviewSegment;
}

const DENIED = {
  401: 'UNAUTHORIZED (API keys are not accepted here)', 403: 'FORBIDDEN (not a member, or the role lacks the permission)',
};
const BAD_RULES = 'VALIDATION_ERROR (details.path names the bad rule, e.g. "rules.all[1].op") or ORGANIZATION_REQUIRED';

export function segmentRoutes(deps: SegmentRouteDeps): RouteDefinition[] {
  return [
    {
      method: 'GET', path: '/segments', tag: 'Segments', summary: 'Segments with live contact counts, newest first',
      auth: 'tenant', permission: 'segments:read',
      responses: { 200: `Segments (at most ${SEGMENTS_LISTED_MAX}) with contactCount`, 400: 'ORGANIZATION_REQUIRED', ...DENIED },
      handler: async (input) => ok(await deps.listSegments.execute(requireTenant(input))),
    },
    {
      method: 'POST', path: '/segments', tag: 'Segments', summary: 'Create a segment (dynamic by default; static ones freeze their members now)',
      auth: 'tenant', permission: 'segments:write', body: CreateSegmentInput,
      responses: { 201: 'The segment with contactCount', 400: BAD_RULES, ...DENIED },
      handler: async (input) => {
        const tenant = requireTenant(input);
        return ok(await deps.createSegment.execute({ organizationId: tenant.organizationId, userId: tenant.userId }, input.body), 201);
      },
    },
    {
      method: 'POST', path: '/segments/preview', tag: 'Segments', summary: 'Count and sample the contacts some rules match (nothing is saved)',
      auth: 'tenant', permission: 'segments:read', body: PreviewSegmentInput,
      responses: { 200: '{ count, sample } (sample: up to 20 contacts, default 10)', 400: BAD_RULES, ...DENIED },
      handler: async (input) => ok(await deps.previewSegment.execute(requireTenant(input), input.body)),
    },
    {
      method: 'GET', path: '/segments/:id', tag: 'Segments', summary: 'One segment with its live contact count',
      auth: 'tenant', permission: 'segments:read',
      responses: { 200: 'The segment', 400: 'ORGANIZATION_REQUIRED', ...DENIED, 404: 'NOT_FOUND' },
      handler: async (input) => ok(await deps.getSegment.execute(requireTenant(input), input.params['id'] ?? '')),
    },
  ];
}
