import type { EventTrigger } from '../../domain/notification-event.ts';
import { takeNextStep, type TriggerDeps } from './trigger-steps.ts';

/**
 * The `inbox-unread-fallback` job: an event trigger's IN_APP message was sent `unreadAfterMinutes`
 * ago; if it is still the trigger's current message and its inbox item is unread, the next channel of
 * the plan is sent (takeNextStep, compare-and-set on the trigger: never twice). Read, archived,
 * stale or repeated: nothing happens.
 */
export class AdvanceUnreadTrigger {
  readonly #deps: TriggerDeps;
  constructor(deps: TriggerDeps) { this.#deps = deps; }

  execute(triggerId: string, messageId: string): Promise<EventTrigger | null> {
    return takeNextStep(this.#deps, triggerId, messageId, { unreadInApp: true });
  }
}
