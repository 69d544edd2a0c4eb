import * as v from 'valibot';
import { fieldError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import { PREFERENCE_CATEGORIES } from '../../domain/preferences.ts';
import { CLOCK_TIME, minutesOf, type SendWindow } from '../../domain/send-window.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Storage } from '../../ports/storage.ts';

/** Most windows the platform keeps (a country per category). */
export const SEND_WINDOWS_MAX = 500;

const clock = v.pipe(v.string('must be a string'), v.regex(CLOCK_TIME, 'must be a time HH:MM'));
export const ReplaceSendWindowsInput = v.object({
  windows: v.pipe(v.array(v.object({
    country: v.pipe(v.string('must be a string'), v.trim(), v.toUpperCase(), v.regex(/^[A-Z]{2}$/, 'must be an ISO 3166 alpha-2 country code')),
    category: v.picklist(PREFERENCE_CATEGORIES, `must be one of ${PREFERENCE_CATEGORIES.join(', ')} (TRANSACTIONAL and OTP are never held)`),
    days: v.pipe(v.array(v.pipe(v.number('must be numbers'), v.integer('must be whole numbers'), v.minValue(0, '0 is Sunday'), v.maxValue(6, '6 is Saturday'))),
      v.maxLength(7, 'at most 7 days'), v.transform((days) => [...new Set(days)].sort((a, b) => a - b))),
    opensAt: clock,
    closesAt: clock,
  })), v.maxLength(SEND_WINDOWS_MAX, `at most ${SEND_WINDOWS_MAX} windows`)),
});

/**
 * PUT /admin/send-windows (platform administrators, docs/consent.md): replaces every window the send
 * path holds messages to, audited; each process sees the change within its cache's 10 seconds.
 */
export class ReplaceSendWindows {
  readonly #deps: { storage: Storage; ids: IdGenerator; clock: Clock; onChange?: () => void };
  constructor(deps: { storage: Storage; ids: IdGenerator; clock: Clock; onChange?: () => void }) { this.#deps = deps; }

  async execute(admin: { userId: string }, raw: unknown): Promise<{ windows: SendWindow[] }> {
    const { windows } = parseInput(ReplaceSendWindowsInput, raw);
    const seen = new Set<string>();
    windows.forEach((w, i) => {
      if (minutesOf(w.opensAt) >= minutesOf(w.closesAt)) throw fieldError(`windows[${i}].closesAt`, 'must be after opensAt (a window within one day)');
      const key = `${w.country}/${w.category}`;
      if (seen.has(key)) throw fieldError(`windows[${i}]`, `${key} is given twice`);
      seen.add(key);
    });
    const now = this.#deps.clock.now();
    await this.#deps.storage.transaction(async (tx) => {
      await tx.sendWindows.replaceAll(windows, now);
      await tx.auditLog.record({
        id: this.#deps.ids.next(), actorUserId: admin.userId, impersonatorUserId: null, organizationId: null, action: 'send_windows.replace', target: null,
        details: { windows: windows.map((w) => `${w.country}/${w.category} ${w.days.join('')} ${w.opensAt}-${w.closesAt}`) }, createdAt: now,
      });
    });
    this.#deps.onChange?.();
    return { windows: await this.#deps.storage.sendWindows.list() };
  }
}
