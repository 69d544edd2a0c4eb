import type { EventTrigger, TriggerPatch, TriggerStep } from '../domain/notification-event.ts';

/**
 * Event triggers and their steps. Reads by organization are tenant-scoped; `findForAdvance`,
 * `advance` and `findStepByMessage` are by id because worker jobs and delivery hooks carry only ids.
 */
export interface EventTriggerRepository {
  insert(trigger: EventTrigger): Promise<void>;
  findById(organizationId: string, id: string): Promise<EventTrigger | null>;
  findForAdvance(id: string): Promise<EventTrigger | null>;
  /** An event's triggers, newest first (createdAt, then id), at most `limit` (capped at 100). */
  listByEvent(organizationId: string, eventId: string, limit: number): Promise<EventTrigger[]>;
  /**
   * Applies `patch` (and bumps the version) only if the trigger is still at `version`. Returns the
   * updated trigger or null: of two concurrent advances exactly one wins.
   */
  advance(id: string, version: number, patch: TriggerPatch): Promise<EventTrigger | null>;
  insertStep(step: TriggerStep): Promise<void>;
  /** The trigger's steps, oldest first (sequence), at most 100; none for another organization's trigger. */
  listSteps(organizationId: string, triggerId: string): Promise<TriggerStep[]>;
  /** The step that sent this message, if a trigger sent it. */
  findStepByMessage(messageId: string): Promise<TriggerStep | null>;
}
