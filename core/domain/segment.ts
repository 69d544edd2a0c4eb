import { ruleToJson, type SegmentRule } from './segment-rules.ts';

/**
 * A named audience. Dynamic segments evaluate `rules` whenever they are used (a campaign evaluates
 * them at send time); static segments froze their members when created (`memberCount` then).
 */
export interface Segment {
  id: string;
  organizationId: string;
  name: string;
  description: string | null;
  rules: SegmentRule;
  isDynamic: boolean;
  createdByUserId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export function segmentView(s: Segment, contactCount: number) {
  return {
    id: s.id, name: s.name, description: s.description, rules: ruleToJson(s.rules), isDynamic: s.isDynamic, contactCount,
    createdAt: s.createdAt.toISOString(), updatedAt: s.updatedAt.toISOString(),
  };
}
