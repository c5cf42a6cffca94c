import { quoteExcerpt } from '@blis/policies/internal';
import type { SloDimTargets } from './observed-trace.js';

const UNIT_MS: Readonly<Record<string, number>> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;

/** A Go-style duration (`100ms`, `1.5s`, `1m30s`) in ms, or undefined when malformed. */
export function durationMs(text: string): number | undefined {
  const s = text.trim();
  if (s === '') return undefined;
  PART.lastIndex = 0;
  let ms = 0;
  while (PART.lastIndex < s.length) {
    const at = PART.lastIndex;
    const m = PART.exec(s);
    if (m === null || m.index !== at) return undefined;
    ms += Number(m[1]) * UNIT_MS[m[2]];
  }
  return ms;
}

/**
 * `critical=100ms,standard=500ms` as class → ms. Undefined for an empty flag; a string naming the
 * problem when a pair is malformed or not positive, quoting excerpts of the flag, never all of it.
 */
export function parseSloFlag(text: string): Map<string, number> | string | undefined {
  const s = text.trim();
  if (s === '') return undefined;
  const out = new Map<string, number>();
  for (const raw of s.split(',')) {
    const pair = raw.trim();
    const eq = pair.indexOf('=');
    if (eq < 0) return `the pair ${quoteExcerpt(pair)} (expected class=duration)`;
    const cls = pair.slice(0, eq).trim();
    if (cls === '') return `an empty class name in ${quoteExcerpt(pair)}`;
    const ms = durationMs(pair.slice(eq + 1));
    if (ms === undefined) return `the duration ${quoteExcerpt(pair.slice(eq + 1).trim())} in ${quoteExcerpt(pair)} (expected e.g. 100ms, 2s, 1m30s)`;
    if (ms <= 0) return `the non-positive duration in ${quoteExcerpt(pair)}`;
    out.set(cls, ms);
  }
  return out;
}

/** The flags' per-class targets in ms; each flag covers one dimension. */
export interface SloFlagTargets {
  ttft?: ReadonlyMap<string, number>;
  itl?: ReadonlyMap<string, number>;
  e2e?: ReadonlyMap<string, number>;
}

/**
 * Per-class targets: the flags win over the trace header, dimension by dimension; a class with
 * no positive target left is not gated. Classes come out sorted by name.
 */
export function mergeSloTargets(flags: SloFlagTargets, header: Readonly<Record<string, SloDimTargets>>): Map<string, SloDimTargets> {
  const classes = new Set<string>([...(flags.ttft?.keys() ?? []), ...(flags.itl?.keys() ?? []), ...(flags.e2e?.keys() ?? []), ...Object.keys(header)]);
  const out = new Map<string, SloDimTargets>();
  for (const cls of [...classes].sort()) {
    const h = header[cls];
    const t: SloDimTargets = { ttftMs: h?.ttftMs ?? 0, itlMs: h?.itlMs ?? 0, e2eMs: h?.e2eMs ?? 0 };
    t.ttftMs = flags.ttft?.get(cls) ?? t.ttftMs;
    t.itlMs = flags.itl?.get(cls) ?? t.itlMs;
    t.e2eMs = flags.e2e?.get(cls) ?? t.e2eMs;
    if (t.ttftMs > 0 || t.itlMs > 0 || t.e2eMs > 0) out.set(cls, t);
  }
  return out;
}
