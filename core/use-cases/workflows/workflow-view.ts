import type { NotificationEvent } from '../../domain/notification-event.ts';
import type { WorkflowRun, WorkflowStep, WorkflowStepRun, WorkflowVersion } from '../../domain/workflow.ts';

export interface WorkflowView {
  eventId: string;
  event: string;
  version: number;
  /** true when the event has no workflow of its own: the one-step workflow every event has (its send). */
  implicit: boolean;
  steps: WorkflowStep[];
  cancelOn: string[];
  retry: { attempts: number; backoffSeconds: number };
  createdAt: string | null;
}

/** An event's workflow: its latest version, or the implicit one-step workflow of an event without one. */
export function workflowView(event: NotificationEvent, version: WorkflowVersion | null): WorkflowView {
  if (!version) {
    return {
      eventId: event.id, event: event.slug, version: 0, implicit: true,
      steps: [{ type: 'send', channels: event.channelPriority, fallbackChannels: event.fallbackRules.channels, templateId: event.templateId }],
      cancelOn: [], retry: { attempts: event.retryRules.attempts, backoffSeconds: event.retryRules.backoffSeconds }, createdAt: null,
    };
  }
  return {
    eventId: event.id, event: event.slug, version: version.version, implicit: false, steps: version.steps, cancelOn: version.cancelOn,
    retry: version.retry, createdAt: version.createdAt.toISOString(),
  };
}

export interface RunStepView {
  index: number;
  type: string;
  status: string;
  outcome: string | null;
  messageId: string | null;
  triggerId: string | null;
  resumeAt: string | null;
  detail: Record<string, unknown>;
  /** The message's status and charged cost (pesewas) for a send step. */
  message: { status: string; channel: string; cost: number } | null;
  startedAt: string;
  finishedAt: string | null;
}

export interface RunView {
  id: string;
  eventId: string;
  event: string;
  version: number;
  status: string;
  cursor: number;
  correlationKey: string | null;
  waitingFor: string | null;
  error: { code: string; message: string } | null;
  attempts: number;
  steps: WorkflowStep[];
  timeline: RunStepView[];
  /** Total charged for the run's messages (pesewas). */
  cost: number;
  createdAt: string;
  updatedAt: string;
}

export function runView(run: WorkflowRun, steps: WorkflowStepRun[], messages: Map<string, { status: string; channel: string; cost: number }>): RunView {
  const timeline = steps.map((s) => ({
    index: s.index, type: s.type, status: s.status, outcome: s.outcome, messageId: s.messageId, triggerId: s.triggerId,
    resumeAt: s.resumeAt?.toISOString() ?? null, detail: s.detail, message: s.messageId ? messages.get(s.messageId) ?? null : null,
    startedAt: s.startedAt.toISOString(), finishedAt: s.finishedAt?.toISOString() ?? null,
  }));
  return {
    id: run.id, eventId: run.eventId, event: run.eventSlug, version: run.version, status: run.status, cursor: run.cursor,
    correlationKey: run.correlationKey, waitingFor: run.waitingFor, error: run.error, attempts: run.attempts, steps: run.steps, timeline,
    cost: timeline.reduce((sum, s) => sum + (s.message?.cost ?? 0), 0), createdAt: run.createdAt.toISOString(), updatedAt: run.updatedAt.toISOString(),
  };
}
