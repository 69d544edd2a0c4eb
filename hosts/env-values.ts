import * as v from 'valibot';

/** An environment variable holding a whole number within [min, max], as a number. */
export const intIn = (min: number, max: number) => v.pipe(
  v.string(), v.regex(/^\d+$/, 'must be a whole number'), v.transform(Number),
  v.number(), v.minValue(min, `must be at least ${min}`), v.maxValue(max, `must be at most ${max}`));
