import type { Clock } from '../../core/ports/clock.ts';

export class SystemClock implements Clock {
  now(): Date { return new Date(); }
}
