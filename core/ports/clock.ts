/** The current time. Adapters: system clock; tests use a fixed, movable clock. */
export interface Clock {
  now(): Date;
}
