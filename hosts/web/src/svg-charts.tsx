import type { ReactNode } from 'react';
import { formatTime } from './format.ts';
import { useSession } from './session.tsx';

/** Small charts drawn as inline SVG (no chart library: these pages refresh often and stay light). */

export interface MinutePoint { minute: string; attempts: number; failed: number }

/** Axis labels use the dashboard's one formatter, in the organization's time zone. */
function useChartTime(): (value: string | number, style: 'time' | 'dayTime') => string {
  const { timezone } = useSession();
  return (value, style) => formatTime(value, timezone, style);
}

/** Attempts (blue) and failures (red, in front) per minute as bars, with a 0 / half / max scale and first, middle and last minute labels. */
export function MinuteChart({ points, label }: { points: readonly MinutePoint[]; label: string }): ReactNode {
  const time = useChartTime();
  const hhmm = (iso: string): string => time(iso, 'time');
  const [width, height, left, bottom, top] = [720, 180, 36, 22, 8];
  const plotW = width - left - 4;
  const plotH = height - bottom - top;
  const max = Math.max(1, ...points.map((p) => p.attempts));
  const barW = plotW / Math.max(points.length, 1);
  const y = (v: number): number => top + plotH - (v / max) * plotH;
  const total = points.reduce((s, p) => s + p.attempts, 0);
  const failed = points.reduce((s, p) => s + p.failed, 0);
  const ticks = max % 2 === 0 ? [0, max / 2, max] : [0, max];
  const labelled = points.length > 0 ? [0, Math.floor((points.length - 1) / 2), points.length - 1] : [];
  return (
    <figure className="minute-chart" data-testid="minute-chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`${label}: ${total} attempts, ${failed} failed`}>
        <title>{`${label}: ${total} attempts, ${failed} failed`}</title>
        {ticks.map((t) => (
          <g key={t}><line x1={left} x2={width - 4} y1={y(t)} y2={y(t)} className="grid" /><text x={left - 4} y={y(t) + 4} textAnchor="end">{t}</text></g>
        ))}
        {points.map((p, i) => (
          <g key={p.minute}>
            <rect x={left + i * barW + 0.5} width={Math.max(barW - 1, 1)} y={y(p.attempts)} height={top + plotH - y(p.attempts)} className="bar-attempts"><title>{`${hhmm(p.minute)}: ${p.attempts} attempts, ${p.failed} failed`}</title></rect>
            {p.failed > 0 && <rect x={left + i * barW + 0.5} width={Math.max(barW - 1, 1)} y={y(p.failed)} height={top + plotH - y(p.failed)} className="bar-failed" />}
          </g>
        ))}
        {[...new Set(labelled)].map((i) => (
          <text key={i} x={i === 0 ? left : i === points.length - 1 ? width - 4 : left + i * barW + barW / 2} y={height - 6}
            textAnchor={i === 0 ? 'start' : i === points.length - 1 ? 'end' : 'middle'}>{hhmm(points[i]!.minute)}</text>
        ))}
      </svg>
      <figcaption className="hint"><span className="key key-attempts" /> attempts <span className="key key-failed" /> failed, per minute</figcaption>
    </figure>
  );
}

/** A line of values, oldest first, a dot per value; values flagged `bad` are marked in red. */
export function Sparkline({ values, bad = [], label }: { values: readonly number[]; bad?: readonly boolean[]; label: string }): ReactNode {
  const [width, height, pad] = [240, 40, 3];
  const max = Math.max(1, ...values);
  const x = (i: number): number => (values.length <= 1 ? width / 2 : pad + (i / (values.length - 1)) * (width - 2 * pad));
  const y = (v: number): number => height - pad - (v / max) * (height - 2 * pad);
  return (
    <svg className="sparkline" viewBox={`0 0 ${width} ${height}`} width={width} height={height} role="img" aria-label={label} data-testid="sparkline">
      <title>{label}</title>
      <line x1={pad} x2={width - pad} y1={height - pad} y2={height - pad} className="base" />
      <polyline points={values.map((v, i) => `${x(i)},${y(v)}`).join(' ')} />
      {values.map((v, i) => <circle key={i} cx={x(i)} cy={y(v)} r={bad[i] ? 3 : 2} className={bad[i] ? 'bad' : 'good'} />)}
    </svg>
  );
}

export interface HourRate { hour: string; starts: number; approvals: number; conversionRate: number | null }

const HOUR = 3_600_000;

/**
 * A rate (0-100 %) per hour as bars on a fixed scale: the `slots` hours up to the current one, each bar at its own
 * hour (hours without data stay empty), 0 / 50 / 100 % grid lines; hours flagged by `bad` are drawn in red.
 */
export function HourlyRateChart({ points, label, bad, legend, slots = 48, now = Date.now() }: {
  points: readonly HourRate[]; label: string; bad: (p: HourRate) => boolean; legend: { ok: string; bad: string }; slots?: number; now?: number;
}): ReactNode {
  const time = useChartTime();
  const dayHour = (ms: number): string => time(ms, 'dayTime');
  const [width, height, left, bottom, top] = [720, 160, 40, 22, 8];
  const plotH = height - bottom - top;
  const last = Math.floor(now / HOUR) * HOUR;
  const first = last - (slots - 1) * HOUR;
  const shown = points.map((p) => ({ p, slot: Math.round((Date.parse(p.hour) - first) / HOUR) })).filter(({ slot }) => slot >= 0 && slot < slots);
  const barW = (width - left - 4) / slots;
  const y = (rate: number): number => top + plotH - (rate / 100) * plotH;
  const starts = shown.reduce((s, { p }) => s + p.starts, 0);
  const approvals = shown.reduce((s, { p }) => s + p.approvals, 0);
  const summary = `${label}: ${approvals} of ${starts} approved in the last ${slots} hours`;
  return (
    <figure className="minute-chart" data-testid="hourly-rate-chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={summary}>
        <title>{summary}</title>
        {[0, 50, 100].map((t) => (
          <g key={t}><line x1={left} x2={width - 4} y1={y(t)} y2={y(t)} className="grid" /><text x={left - 4} y={y(t) + 4} textAnchor="end">{`${t}%`}</text></g>
        ))}
        {shown.map(({ p, slot }) => (
          <rect key={p.hour} x={left + slot * barW + 0.5} width={Math.max(barW - 1, 1)} y={Math.min(y(p.conversionRate ?? 0), top + plotH - 1)}
            height={Math.max(1, top + plotH - y(p.conversionRate ?? 0))} className={bad(p) ? 'bar-failed' : 'bar-attempts'}>
            <title>{`${dayHour(Date.parse(p.hour))}: ${p.approvals} of ${p.starts} approved (${p.conversionRate === null ? '–' : `${p.conversionRate}%`})`}</title>
          </rect>
        ))}
        <text x={left} y={height - 6} textAnchor="start">{dayHour(first)}</text>
        <text x={width - 4} y={height - 6} textAnchor="end">{dayHour(last)}</text>
      </svg>
      <figcaption className="hint"><span className="key key-attempts" /> {legend.ok} <span className="key key-failed" /> {legend.bad}</figcaption>
    </figure>
  );
}

export interface DayCount { day: string; count: number }

const DAY = 86_400_000;
/** The API's day buckets are UTC dates: labelled as those dates. */
const dayLabel = (ms: number): string => formatTime(ms, 'UTC', 'day');

/**
 * A count per day (UTC dates `YYYY-MM-DD`) as bars over the `days` days ending today: a day without data
 * has no bar; 0 / half / max scale; the first, middle and last days labelled.
 */
export function DailyChart({ points, label, unit, days = 30, now = Date.now() }: { points: readonly DayCount[]; label: string; unit: string; days?: number; now?: number }): ReactNode {
  const [width, height, left, bottom, top] = [720, 160, 36, 22, 8];
  const plotH = height - bottom - top;
  const last = Math.floor(now / DAY) * DAY;
  const first = last - (days - 1) * DAY;
  const shown = points.map((p) => ({ p, slot: Math.round((Date.parse(`${p.day.slice(0, 10)}T00:00:00Z`) - first) / DAY) })).filter(({ slot }) => slot >= 0 && slot < days);
  const max = Math.max(1, ...shown.map(({ p }) => p.count));
  const barW = (width - left - 4) / days;
  const y = (v: number): number => top + plotH - (v / max) * plotH;
  const total = shown.reduce((s, { p }) => s + p.count, 0);
  const ticks = max % 2 === 0 ? [0, max / 2, max] : [0, max];
  const summary = `${label}: ${total} ${unit} in the last ${days} days`;
  return (
    <figure className="minute-chart" data-testid="daily-chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={summary}>
        <title>{summary}</title>
        {ticks.map((t) => (
          <g key={t}><line x1={left} x2={width - 4} y1={y(t)} y2={y(t)} className="grid" /><text x={left - 4} y={y(t) + 4} textAnchor="end">{t}</text></g>
        ))}
        {shown.map(({ p, slot }) => (
          <rect key={p.day} x={left + slot * barW + 0.5} width={Math.max(barW - 1, 1)} y={y(p.count)} height={top + plotH - y(p.count)} className="bar-attempts">
            <title>{`${dayLabel(first + slot * DAY)}: ${p.count} ${unit}`}</title>
          </rect>
        ))}
        <text x={left} y={height - 6} textAnchor="start">{dayLabel(first)}</text>
        <text x={left + Math.floor(days / 2) * barW + barW / 2} y={height - 6} textAnchor="middle">{dayLabel(first + Math.floor(days / 2) * DAY)}</text>
        <text x={width - 4} y={height - 6} textAnchor="end">{dayLabel(last)}</text>
      </svg>
      <figcaption className="hint"><span className="key key-attempts" /> {unit} per day (UTC)</figcaption>
    </figure>
  );
}
