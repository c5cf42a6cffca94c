import { summarizeUsAsMs } from '@blis/engine/internal';
import type { ClassLog, GoodputRecorder } from './goodput-recorder.js';

/** Per gated dimension, the share of the class's completions within its threshold. */
export interface GoodputByDim {
  e2e?: number;
  itl?: number;
  ttft?: number;
}

/**
 * One gated class, as BLIS's `per_class` entry (cmd/goodput.go emitGoodput), keys in its order:
 * `count` is the class's arrivals (dropped, rejected and timed-out requests included), the
 * latency figures are over its completions and present when positive.
 */
export interface GoodputClassResult {
  count: number;
  e2e_p99_ms?: number;
  goodput_rps: number;
  itl_mean_ms?: number;
  slo_attainment: number;
  slo_attainment_by_dim: GoodputByDim;
  ttft_p99_ms?: number;
}

/** The run's goodput against the resolved per-class thresholds (BLIS's goodput fields). */
export interface GoodputResult {
  /** Good requests (completed within every threshold of their class) per simulated second. */
  goodput_rps: number;
  /** Good requests over the gated classes' arrivals. */
  slo_attainment: number;
  per_class: Record<string, GoodputClassResult>;
  /** The thresholds applied (ms, 0 = not gated): the workload's, overridden by the flags'. */
  targets: Record<string, { ttft_ms: number; itl_ms: number; e2e_ms: number }>;
}

const ratio = (num: number, den: number) => (den === 0 ? 0 : num / den);

/** BLIS's request names (`request_<n>`), whose byte order its per-class ITL sum follows. */
const blisId = (id: string) => (/^\d+$/.test(id) ? `request_${id}` : id);

/** BLIS's mean of per-request mean ITLs, summed in its order (request names sorted) so the float sum is the same. */
function itlMeanMs(c: ClassLog): number {
  const n = c.ids.length;
  if (n === 0) return 0;
  const keys = c.ids.map(blisId);
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : 0));
  let sum = 0;
  for (const i of order) sum += c.itlUs.get(i);
  return sum / n / 1e3;
}

/** The goodput of a finished run over `durationUs` simulated µs (BLIS's SLOAttainmentMultiDim and emitGoodput). */
export function goodputResult(rec: GoodputRecorder, durationUs: number): GoodputResult {
  const runtimeSec = durationUs / 1e6;
  const perClass: Record<string, GoodputClassResult> = {};
  const targets: GoodputResult['targets'] = {};
  let good = 0;
  let injected = 0;
  for (const [cls, c] of rec.classes) {
    const t = rec.targets[cls];
    targets[cls] = { ttft_ms: t.ttftMs, itl_ms: t.itlMs, e2e_ms: t.e2eMs };
    let classGood = 0;
    let ttftMet = 0;
    let itlMet = 0;
    let e2eMet = 0;
    const n = c.ids.length;
    for (let i = 0; i < n; i++) {
      // BLIS compares in ms, each latency its µs over 1e3.
      const ttftOk = c.ttftUs.get(i) / 1e3 <= t.ttftMs;
      const itlOk = c.itlUs.get(i) / 1e3 <= t.itlMs;
      const e2eOk = c.e2eUs.get(i) / 1e3 <= t.e2eMs;
      if (ttftOk) ttftMet++;
      if (itlOk) itlMet++;
      if (e2eOk) e2eMet++;
      if ((t.ttftMs <= 0 || ttftOk) && (t.itlMs <= 0 || itlOk) && (t.e2eMs <= 0 || e2eOk)) classGood++;
    }
    const byDim: GoodputByDim = {};
    if (t.e2eMs > 0) byDim.e2e = ratio(e2eMet, n);
    if (t.itlMs > 0) byDim.itl = ratio(itlMet, n);
    if (t.ttftMs > 0) byDim.ttft = ratio(ttftMet, n);
    const ttftP99 = summarizeUsAsMs(c.ttftUs.view()).p99;
    const e2eP99 = summarizeUsAsMs(c.e2eUs.view()).p99;
    const itlMean = itlMeanMs(c);
    perClass[cls] = {
      count: c.injected,
      ...(e2eP99 > 0 ? { e2e_p99_ms: e2eP99 } : {}),
      goodput_rps: runtimeSec > 0 ? classGood / runtimeSec : 0,
      ...(itlMean > 0 ? { itl_mean_ms: itlMean } : {}),
      slo_attainment: ratio(classGood, c.injected),
      slo_attainment_by_dim: byDim,
      ...(ttftP99 > 0 ? { ttft_p99_ms: ttftP99 } : {}),
    };
    good += classGood;
    injected += c.injected;
  }
  return { goodput_rps: runtimeSec > 0 ? good / runtimeSec : 0, slo_attainment: ratio(good, injected), per_class: perClass, targets };
}
