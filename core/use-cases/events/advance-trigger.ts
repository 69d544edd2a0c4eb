import type { EventTrigger } from '../../domain/notification-event.ts';
import { takeNextStep, type TriggerDeps } from './trigger-steps.ts';

/**
 * The `trigger-fallback` job: an event trigger's message failed after the request (the worker gave
 * up, or a delivery report said FAILED), so take the trigger's next step: a re-send after the
 * backoff or the next channel (takeNextStep). Stale or repeated jobs change nothing.
 */
export class AdvanceTrigger {
  readonly #deps: TriggerDeps;
  constructor(deps: TriggerDeps) { this.#deps = deps; }

  execute(triggerId: string, failedMessageId: string): Promise<EventTrigger | null> {
    return takeNextStep(this.#deps, triggerId, failedMessageId);
  }
}
