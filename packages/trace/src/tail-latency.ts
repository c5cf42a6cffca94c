import { nearestRank } from './percentile.js';
import type { AnomalyRecord } from './records.js';

/** Fewer completions than this in a class make p99/p50 meaningless; such classes are skipped. */
export const TAIL_MIN_SAMPLES = 20;

/** Requests named as examples of a blown tail: the slowest ones. */
const TAIL_EXAMPLES = 3;

export interface ClassLatencies {
  /** Client-observed TTFTs (µs) of the class's completed requests, with their request ids. */
  readonly ttftUs: readonly number[];
  readonly ids: readonly string[];
}

/**
 * One tail-latency blowup anomaly per SLO class whose p99/p50 TTFT ratio exceeds `threshold`
 * (classes in name order, for deterministic output). The examples are the slowest requests.
 */
export function detectTailBlowups(classes: ReadonlyMap<string, ClassLatencies>, threshold: number, nowUs: number): AnomalyRecord[] {
  const out: AnomalyRecord[] = [];
  const names = [...classes.keys()].sort();
  for (const slo of names) {
    const c = classes.get(slo)!;
    const n = c.ttftUs.length;
    if (n < TAIL_MIN_SAMPLES) continue;
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => c.ttftUs[a] - c.ttftUs[b] || a - b);
    const sorted = order.map((i) => c.ttftUs[i]);
    const p50 = nearestRank(sorted, 50);
    const p99 = nearestRank(sorted, 99);
    if (!(p50 > 0)) continue;
    const ratio = p99 / p50;
    if (ratio <= threshold) continue;
    const ids: string[] = [];
    for (let k = n - 1; k >= 0 && ids.length < TAIL_EXAMPLES; k--) ids.push(c.ids[order[k]]);
    out.push({ t: 'anomaly', ts: nowUs, kind: 'tail_latency_blowup', inst: -1, ids, slo, p50_us: p50, p99_us: p99, ratio });
  }
  return out;
}
