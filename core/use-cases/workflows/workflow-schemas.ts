import * as v from 'valibot';
import { CHANNELS, type Channel } from '../../domain/channel.ts';
import { EVENT_WAITS, WAIT_FOR, WORKFLOW_CONDITION_OPS, DEFAULT_WORKFLOW_RETRY, WORKFLOW_LIMITS, type WorkflowCondition, type StepTarget, type WorkflowStep } from '../../domain/workflow.ts';
import { channelSchema } from '../messaging/message-preparation.ts';
import { slugSchema } from '../events/event-schemas.ts';

const integer = (min: number, max: number) => v.pipe(v.number('must be a number'), v.integer('must be a whole number'),
  v.minValue(min, `must be at least ${min}`), v.maxValue(max, `must be at most ${max}`));
const variableName = v.pipe(v.string('must be a string'), v.regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/, 'must be a variable name'));
const channels = v.pipe(v.array(channelSchema, 'must be an array of channels'), v.maxLength(CHANNELS.length, `must list at most ${CHANNELS.length} channels`),
  v.check((list) => new Set(list).size === list.length, 'must not repeat a channel'));

const targetSchema: v.GenericSchema<unknown, StepTarget> = v.union([v.picklist(['next', 'end'] as const),
  v.strictObject({ goTo: integer(1, WORKFLOW_LIMITS.steps - 1) })], 'must be "next", "end" or { "goTo": step index }');

const CONDITION_DEPTH_MAX = 4;
const CONDITION_TERMS_MAX = 20;
const path = v.pipe(v.string('must be a string'), v.regex(/^(payload|contact|steps)(\.[A-Za-z0-9_-]{1,64}){1,4}$/, 'must start with payload., contact. or steps.'));
const scalar = v.union([v.pipe(v.string(), v.maxLength(500, 'is too long')), v.number(), v.boolean()]);
const conditionSchema: v.GenericSchema<unknown, WorkflowCondition> = v.lazy(() => v.union([
  v.strictObject({ all: v.pipe(v.array(conditionSchema), v.minLength(1), v.maxLength(CONDITION_TERMS_MAX)) }),
  v.strictObject({ any: v.pipe(v.array(conditionSchema), v.minLength(1), v.maxLength(CONDITION_TERMS_MAX)) }),
  v.strictObject({ not: conditionSchema }),
  v.strictObject({ path, op: v.picklist(WORKFLOW_CONDITION_OPS), value: v.optional(v.union([scalar, v.pipe(v.array(v.union([v.string(), v.number()])), v.maxLength(100))])) }),
], 'must be { path, op, value } or { all | any: [...] } or { not: ... }'));

function depth(c: WorkflowCondition): number {
  if ('all' in c) return 1 + Math.max(...c.all.map(depth));
  if ('any' in c) return 1 + Math.max(...c.any.map(depth));
  if ('not' in c) return 1 + depth(c.not);
  return 1;
}

const sendStep = v.strictObject({
  type: v.literal('send'), channels: v.optional(v.pipe(channels, v.minLength(1, 'must list at least one channel'))),
  fallbackChannels: v.optional(channels), templateId: v.optional(v.nullable(v.pipe(v.string(), v.minLength(1), v.maxLength(64)))),
});
const delayStep = v.pipe(v.strictObject({
  type: v.literal('delay'), seconds: v.optional(integer(1, WORKFLOW_LIMITS.delaySeconds)), untilVariable: v.optional(variableName),
  untilSendWindow: v.optional(v.boolean()),
}), v.check((s) => [s.seconds !== undefined, s.untilVariable !== undefined, s.untilSendWindow === true].filter(Boolean).length === 1,
  'a delay needs exactly one of seconds, untilVariable, untilSendWindow'));
const digestStep = v.strictObject({
  type: v.literal('digest'), windowSeconds: integer(1, WORKFLOW_LIMITS.digestWindowSeconds), maxItems: v.optional(integer(1, WORKFLOW_LIMITS.digestItems), WORKFLOW_LIMITS.digestItems),
  keyVariable: v.optional(variableName), lookBack: v.optional(v.boolean(), false), itemVariable: v.optional(variableName),
});
const throttleStep = v.strictObject({
  type: v.literal('throttle'), limit: integer(1, 10_000), windowSeconds: integer(1, WORKFLOW_LIMITS.throttleWindowSeconds), keyVariable: v.optional(variableName),
});
const branchStep = v.strictObject({
  type: v.literal('branch'), if: v.pipe(conditionSchema, v.check((c) => depth(c) <= CONDITION_DEPTH_MAX, `must nest at most ${CONDITION_DEPTH_MAX} levels`)),
  then: v.optional(targetSchema, 'next'), else: v.optional(targetSchema, 'end'),
});
const waitStep = v.pipe(v.strictObject({
  type: v.literal('wait'), for: v.picklist(WAIT_FOR, `must be one of ${WAIT_FOR.map((w) => `"${w}"`).join(', ')}`), event: v.optional(slugSchema),
  timeoutSeconds: integer(1, WORKFLOW_LIMITS.waitSeconds), onEvent: v.optional(targetSchema, 'next'), onTimeout: v.optional(targetSchema, 'end'),
}), v.check((s) => s.for !== 'trigger' || s.event !== undefined, 'a wait for a trigger needs event (the slug)'));

const stepSchema = v.variant('type', [sendStep, delayStep, digestStep, throttleStep, branchStep, waitStep],
  'must be a step: type send, delay, digest, throttle, branch or wait');

/** A step as validated: the send step's channels resolved later against the event's. */
export type StepInput = v.InferOutput<typeof stepSchema>;

function targetsOf(step: StepInput): StepTarget[] {
  if (step.type === 'branch') return [step.then, step.else];
  if (step.type === 'wait') return [step.onEvent, step.onTimeout];
  return [];
}

/** PUT /events/{id}/workflow: the whole step list (a new version each time). */
export const PutWorkflowInput = v.pipe(v.object({
  steps: v.pipe(v.array(stepSchema, 'must be an array of steps'), v.minLength(1, 'must have at least one step'),
    v.maxLength(WORKFLOW_LIMITS.steps, `must have at most ${WORKFLOW_LIMITS.steps} steps`)),
  cancelOn: v.optional(v.pipe(v.array(slugSchema), v.maxLength(10, 'must list at most 10 events')), () => []),
  retry: v.optional(v.object({
    attempts: v.optional(integer(1, WORKFLOW_LIMITS.retryAttempts), DEFAULT_WORKFLOW_RETRY.attempts),
    backoffSeconds: v.optional(integer(0, 3_600), DEFAULT_WORKFLOW_RETRY.backoffSeconds),
  }), () => ({ ...DEFAULT_WORKFLOW_RETRY })),
}), v.check((input) => input.steps.every((step, index) => targetsOf(step).every((t) => typeof t === 'string' || (t.goTo > index && t.goTo <= input.steps.length))),
  'a goTo must point to a later step (or steps.length to end): workflows never loop'),
v.check((input) => input.steps.every((step, index) => step.type !== 'wait' || !EVENT_WAITS.includes(step.for) || input.steps.slice(0, index).some((s) => s.type === 'send')),
  'a wait for a read, a reply or a click needs a send step before it (it watches the latest send\'s message)'));

export type PutWorkflowInputType = v.InferOutput<typeof PutWorkflowInput>;

/** The stored step of a validated one (send defaults filled in from the event by the caller). */
export function toStoredStep(step: StepInput, defaults: { channels: Channel[]; fallbackChannels: Channel[]; templateId: string | null }): WorkflowStep {
  if (step.type === 'send') {
    return {
      type: 'send', channels: step.channels ?? defaults.channels, fallbackChannels: step.fallbackChannels ?? defaults.fallbackChannels,
      templateId: step.templateId === undefined ? defaults.templateId : step.templateId,
    };
  }
  return step as WorkflowStep;
}
