import type { Segment } from '../domain/segment.ts';

/** Segments and the frozen membership of static ones. Tenant-scoped. */
export interface SegmentRepository {
  insert(segment: Segment): Promise<void>;
  findById(organizationId: string, id: string): Promise<Segment | null>;
  /** Newest first, at most `limit`. */
  list(organizationId: string, limit: number): Promise<Segment[]>;
  /** Static segments: records every contact currently matching the segment's rules as a member; returns how many. */
  freezeMembers(segment: Segment): Promise<number>;
}
