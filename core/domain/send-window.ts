import { isExemptCategory, type TemplateCategory } from './channel.ts';

/**
 * When a category may reach people of a country (docs/consent.md): days of the week (0 Sunday ... 6
 * Saturday) and opening hours in the recipient's local time, opens inclusive, closes exclusive (GH
 * marketing: Monday to Saturday, 08:00 to 19:00, so 19:00:00 is outside). Data, not code: platform
 * administrators edit them (GET/PUT /admin/send-windows).
 */
export interface SendWindow {
  country: string;
  category: TemplateCategory;
  days: number[];
  opensAt: string;
  closesAt: string;
}

/** An organization's quiet hours (recipient's local time; may span midnight, 21:00-07:00). */
export interface QuietHours { start: string; end: string }

/** Categories quiet hours never hold back: what people asked for, and alerts that cannot wait. */
export function heldByQuietHours(category: TemplateCategory): boolean {
  return !isExemptCategory(category) && category !== 'ALERT';
}

export const CLOCK_TIME = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;

/** Minutes after midnight of "HH:MM". */
export function minutesOf(clock: string): number {
  return Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));
}

/**
 * The default time zone of a country's recipients when their contact names none: the zone most of
 * its people live in (a country with several takes its capital's). Unknown countries: null (the
 * organization's zone applies).
 */
export const COUNTRY_TIME_ZONES: Readonly<Record<string, string>> = {
  GH: 'Africa/Accra', NG: 'Africa/Lagos', KE: 'Africa/Nairobi', ZA: 'Africa/Johannesburg', CI: 'Africa/Abidjan', SN: 'Africa/Dakar',
  TG: 'Africa/Lome', BJ: 'Africa/Porto-Novo', BF: 'Africa/Ouagadougou', ML: 'Africa/Bamako', NE: 'Africa/Niamey', LR: 'Africa/Monrovia',
  SL: 'Africa/Freetown', GM: 'Africa/Banjul', GN: 'Africa/Conakry', CM: 'Africa/Douala', UG: 'Africa/Kampala', TZ: 'Africa/Dar_es_Salaam',
  RW: 'Africa/Kigali', ET: 'Africa/Addis_Ababa', ZM: 'Africa/Lusaka', ZW: 'Africa/Harare', MW: 'Africa/Blantyre', MZ: 'Africa/Maputo',
  BW: 'Africa/Gaborone', NA: 'Africa/Windhoek', AO: 'Africa/Luanda', CD: 'Africa/Kinshasa', EG: 'Africa/Cairo', MA: 'Africa/Casablanca',
  TN: 'Africa/Tunis', DZ: 'Africa/Algiers', GB: 'Europe/London', FR: 'Europe/Paris', DE: 'Europe/Berlin', US: 'America/New_York',
  CA: 'America/Toronto', AE: 'Asia/Dubai', IN: 'Asia/Kolkata', CN: 'Asia/Shanghai',
};

interface Local { year: number; month: number; day: number; weekday: number; minute: number }

const formatters = new Map<string, Intl.DateTimeFormat>();
const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', weekday: 'short' });
    formatters.set(timeZone, f);
  }
  return f;
}

function localOf(at: Date, timeZone: string): Local & { second: number } {
  const parts: Record<string, string> = {};
  for (const p of formatter(timeZone).formatToParts(at)) parts[p.type] = p.value;
  return {
    year: Number(parts['year']), month: Number(parts['month']), day: Number(parts['day']), weekday: WEEKDAYS[parts['weekday'] ?? 'Sun'] ?? 0,
    minute: Number(parts['hour']) * 60 + Number(parts['minute']), second: Number(parts['second']),
  };
}

/** The instant a local wall-clock time of `timeZone` names (offsets read at that instant, so DST is honoured). */
function instantOf(year: number, month: number, day: number, minute: number, timeZone: string): Date {
  const wall = Date.UTC(year, month - 1, day, Math.floor(minute / 60), minute % 60);
  let guess = wall;
  for (let i = 0; i < 2; i++) {
    const l = localOf(new Date(guess), timeZone);
    const seen = Date.UTC(l.year, l.month - 1, l.day, Math.floor(l.minute / 60), l.minute % 60, l.second) - (guess % 1000);
    guess = guess + (wall - seen);
  }
  return new Date(guess);
}

function allowed(local: Local, window: SendWindow | null, quiet: QuietHours | null): boolean {
  if (window && !(window.days.includes(local.weekday) && local.minute >= minutesOf(window.opensAt) && local.minute < minutesOf(window.closesAt))) return false;
  if (quiet) {
    const [start, end] = [minutesOf(quiet.start), minutesOf(quiet.end)];
    const inside = start < end ? local.minute >= start && local.minute < end : local.minute >= start || local.minute < end;
    if (inside) return false;
  }
  return true;
}

/**
 * The first instant at or after `at` when a message may go out under `window` and outside `quiet`
 * hours, both read in `timeZone`; `at` itself when it is allowed. Null when nothing in the next 8 days
 * is (a window without days, or quiet hours covering it): the caller sends at `at` rather than never.
 */
export function nextAllowedTime(at: Date, timeZone: string, window: SendWindow | null, quiet: QuietHours | null): Date | null {
  const now = localOf(at, timeZone);
  if (allowed(now, window, quiet)) return at;
  const openings = [window ? minutesOf(window.opensAt) : null, quiet ? minutesOf(quiet.end) : null, 0].filter((m): m is number => m !== null);
  for (let offset = 0; offset <= 8; offset++) {
    const date = new Date(Date.UTC(now.year, now.month - 1, now.day + offset));
    const candidates = openings.map((minute) => instantOf(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), minute, timeZone))
      .filter((t) => t.getTime() > at.getTime()).sort((a, b) => a.getTime() - b.getTime());
    for (const candidate of candidates) if (allowed(localOf(candidate, timeZone), window, quiet)) return candidate;
  }
  return null;
}
