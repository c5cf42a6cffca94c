import type { GoodputTargets } from './trace-writer.js';

const GO_DURATION_PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;
const UNIT_MS: Readonly<Record<string, number>> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1e3, m: 60e3, h: 3600e3 };

/** A Go duration (`100ms`, `1.5s`, `1m30s`) in ms, or undefined when it is not one. */
export function goDurationMs(text: string): number | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  GO_DURATION_PART.lastIndex = 0;
  let ms = 0;
  let at = 0;
  while (at < t.length) {
    GO_DURATION_PART.lastIndex = at;
    const m = GO_DURATION_PART.exec(t);
    if (m === null) return undefined;
    ms += Number(m[1]) * UNIT_MS[m[2]];
    at = GO_DURATION_PART.lastIndex;
  }
  return ms;
}

/**
 * One `--slo-ttft`/`--slo-itl`/`--slo-e2e` value, `class=duration,...` (e.g.
 * `critical=100ms,standard=500ms`), as class → ms. Throws a message saying what is wrong.
 */
export function parseClassDurations(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const pair of text.split(',')) {
    const p = pair.trim();
    const eq = p.indexOf('=');
    if (eq <= 0) throw new Error(`"${p}" is not class=duration`);
    const ms = goDurationMs(p.slice(eq + 1));
    if (ms === undefined || !(ms > 0)) throw new Error(`"${p.slice(eq + 1).trim()}" in "${p}" is not a positive duration with its unit (e.g. 100ms, 1.5s)`);
    out.set(p.slice(0, eq).trim(), ms);
  }
  return out;
}

/** The header's `goodput_slo_targets` from the three per-class flags; classes in name order. */
export function goodputTargets(ttft?: Map<string, number>, itl?: Map<string, number>, e2e?: Map<string, number>): Record<string, GoodputTargets> | undefined {
  const classes = [...new Set([...(ttft?.keys() ?? []), ...(itl?.keys() ?? []), ...(e2e?.keys() ?? [])])].sort();
  if (classes.length === 0) return undefined;
  return Object.fromEntries(
    classes.map((c) => [c, { ...(ttft?.has(c) === true ? { ttft_ms: ttft.get(c) } : {}), ...(itl?.has(c) === true ? { itl_ms: itl.get(c) } : {}), ...(e2e?.has(c) === true ? { e2e_ms: e2e.get(c) } : {}) }]),
  );
}
