import type { WindowSpec } from '../client-schema.js';

/** A cohort's day shape: the rate peaks at `peak_hour` and is `1 / peak_to_trough_ratio` of it 12 hours away. */
export interface DiurnalSpec {
  peak_hour: number;
  peak_to_trough_ratio: number;
}

/** A cohort's burst: active over `[start_time_us, start_time_us + duration_us)`, at `trace_rate` when given. */
export interface SpikeSpec {
  start_time_us: number;
  duration_us: number;
  trace_rate?: number;
}

/** A cohort's wind-down: full rate until `start_time_us`, then a linear ramp to 0 over `ramp_duration_us`. */
export interface DrainSpec {
  start_time_us: number;
  ramp_duration_us: number;
}

const HOUR_US = 3_600_000_000;
const HOURS = 24;
const DRAIN_SEGMENTS = 10;

/**
 * The share of hour `h` a diurnal cohort is active, BLIS's cosine: `(1 + cos(2π(h − peak)/24)) / 2
 * × (1 − 1/R) + 1/R`, 1 at the peak hour and 1/R twelve hours away. BLIS shapes the rate by
 * switching clients off for the rest of each hour (a square wave), not by changing their gaps.
 */
export function diurnalShare(d: DiurnalSpec, hour: number): number {
  const r = d.peak_to_trough_ratio;
  return ((1 + Math.cos((2 * Math.PI * (hour - d.peak_hour)) / HOURS)) / 2) * (1 - 1 / r) + 1 / r;
}

/** 24 one-hour windows (the first simulated day), each active from the hour's start for its share of the hour (at least 1 µs). */
export function diurnalWindows(d: DiurnalSpec): WindowSpec[] {
  return Array.from({ length: HOURS }, (_, h) => {
    // Go's int64(float64(usPerHour) * multiplier): truncated.
    const active = Math.max(1, Math.min(HOUR_US, Math.trunc(HOUR_US * diurnalShare(d, h))));
    return { start_us: h * HOUR_US, end_us: h * HOUR_US + active };
  });
}

/** The spike's window, carrying the cohort's `trace_rate` divided among its `population` members. */
export function spikeWindow(s: SpikeSpec, population: number): WindowSpec {
  const w: WindowSpec = { start_us: s.start_time_us, end_us: s.start_time_us + s.duration_us };
  if (s.trace_rate !== undefined) w.trace_rate = s.trace_rate / population;
  return w;
}

/**
 * A drain as BLIS approximates it: a full-rate window `[0, start)` (when start > 0), then 10
 * segments of `ramp / 10` µs (truncated, at least 1) from `start`, segment i active for
 * `(10 − i) / 10` of its length (truncated, at least 1 µs).
 */
export function drainWindows(d: DrainSpec): WindowSpec[] {
  const segment = Math.max(1, Math.trunc(d.ramp_duration_us / DRAIN_SEGMENTS));
  const out: WindowSpec[] = d.start_time_us > 0 ? [{ start_us: 0, end_us: d.start_time_us }] : [];
  for (let i = 0; i < DRAIN_SEGMENTS; i++) {
    const start = d.start_time_us + i * segment;
    const active = Math.max(1, Math.trunc(segment * ((DRAIN_SEGMENTS - i) / DRAIN_SEGMENTS)));
    out.push({ start_us: start, end_us: start + active });
  }
  return out;
}
