import type { Clock } from '../../core/ports/clock.ts';

/** A clock that stands still until a test moves it. */
export class FixedClock implements Clock {
  #now: Date;
  constructor(start = new Date('2026-01-15T09:00:00.000Z')) { this.#now = new Date(start); }
  now(): Date { return new Date(this.#now); }
  advance(ms: number): void { this.#now = new Date(this.#now.getTime() + ms); }
  set(to: Date): void { this.#now = new Date(to); }
}
