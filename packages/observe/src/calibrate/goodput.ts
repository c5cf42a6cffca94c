import { type ItlRow, tokenChunkRows } from './itl-data.js';
import type { ObservedTraceRow, SloDimTargets } from './observed-trace.js';
import type { SimRequestResult } from './sim-results.js';

/** A class's targets as BLIS writes them (its Go field names, every dimension, 0 = not gated). */
export interface GoodputTargetsJson {
  TTFTMs: number;
  ITLMs: number;
  E2EMs: number;
}

/** Real against simulated SLO attainment of one class. Ratios are fractions. */
export interface GoodputClassComparison {
  count: number;
  real_slo_attainment: number;
  sim_slo_attainment: number;
  real_goodput_rps: number;
  sim_goodput_rps: number;
  /** Per gated dimension (`e2e`, `itl`, `ttft`): met / judged. */
  real_attainment_by_dim?: Record<string, number>;
  sim_attainment_by_dim?: Record<string, number>;
}

export interface GoodputComparison {
  targets: Record<string, GoodputTargetsJson>;
  per_class: Record<string, GoodputClassComparison>;
  /** An ITL target was set but a judged request had no ITL on one side (it then fails). */
  skipped_itl?: boolean;
}

export interface GoodputInputs {
  records: readonly ObservedTraceRow[];
  sims: ReadonlyMap<number, SimRequestResult>;
  /** Ids past warm-up that have a simulated result. */
  matchedIds: ReadonlySet<number>;
  /** Chunk rows per request, in chunk order. */
  itlByRequest: ReadonlyMap<number, readonly ItlRow[]>;
  /** Sorted by class. */
  targets: ReadonlyMap<string, SloDimTargets>;
  /** Span of the real run (first send to last chunk of the matched records); 0 leaves RPS at 0. */
  runtimeSec: number;
}

const ratio = (num: number, den: number) => (den === 0 ? 0 : num / den);

/** Mean of a request's strictly positive token-chunk gaps in ms (BLIS's goodput rule, unlike pairing's). */
function realItlMs(chunks: readonly ItlRow[] | undefined): number | undefined {
  if (chunks === undefined || chunks.length < 2) return undefined;
  let sum = 0;
  let n = 0;
  for (let i = 1; i < chunks.length; i++) {
    const d = chunks[i].timestampUs - chunks[i - 1].timestampUs;
    if (d > 0) {
      sum += d;
      n++;
    }
  }
  return n === 0 ? undefined : sum / n / 1000;
}

interface Tally {
  met: number;
  judged: number;
}

/** Judges one side of one request: TTFT, then E2E, then ITL, each only while the others passed. */
function judge(ttftMs: number, e2eMs: number, itlMs: number | undefined, t: SloDimTargets, dims: Record<'ttft' | 'e2e' | 'itl', Tally>, onMissingItl: () => void): boolean {
  let good = ttftMs > 0 && e2eMs > 0 && e2eMs >= ttftMs;
  if (t.ttftMs > 0 && good) {
    dims.ttft.judged++;
    if (ttftMs <= t.ttftMs) dims.ttft.met++;
    else good = false;
  }
  if (t.e2eMs > 0 && good) {
    dims.e2e.judged++;
    if (e2eMs <= t.e2eMs) dims.e2e.met++;
    else good = false;
  }
  if (t.itlMs > 0 && good) {
    if (itlMs === undefined) {
      onMissingItl();
      good = false;
    } else {
      dims.itl.judged++;
      if (itlMs <= t.itlMs) dims.itl.met++;
      else good = false;
    }
  }
  return good;
}

function byDim(t: SloDimTargets, dims: Record<'ttft' | 'e2e' | 'itl', Tally>): Record<string, number> | undefined {
  const out: Record<string, number> = {};
  // Alphabetical, as BLIS's map keys come out.
  if (t.e2eMs > 0) out.e2e = ratio(dims.e2e.met, dims.e2e.judged);
  if (t.itlMs > 0) out.itl = ratio(dims.itl.met, dims.itl.judged);
  if (t.ttftMs > 0) out.ttft = ratio(dims.ttft.met, dims.ttft.judged);
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * Per SLO class (an empty class is `default`; classes without targets are left out): the share
 * of matched requests that meet every target, real and simulated, and those counts per second of
 * the real run. Failed and timed-out records count in the denominator only; the simulated side is
 * server-side, without the network.
 */
export function compareGoodput(inp: GoodputInputs): GoodputComparison | undefined {
  if (inp.targets.size === 0) return undefined;
  const newDims = () => ({ ttft: { met: 0, judged: 0 }, e2e: { met: 0, judged: 0 }, itl: { met: 0, judged: 0 } });
  const acc = new Map([...inp.targets.keys()].map((c) => [c, { count: 0, realGood: 0, simGood: 0, real: newDims(), sim: newDims() }]));
  let itlMissing = false;
  const missing = () => {
    itlMissing = true;
  };
  for (const rec of inp.records) {
    if (rec.status !== 'ok' && rec.status !== 'error' && rec.status !== 'timeout') continue;
    if (!inp.matchedIds.has(rec.requestId)) continue;
    const cls = rec.sloClass === '' ? 'default' : rec.sloClass;
    const t = inp.targets.get(cls);
    const a = acc.get(cls);
    if (t === undefined || a === undefined) continue;
    a.count++;
    if (rec.status === 'ok') {
      const ttft = (rec.firstChunkTimeUs - rec.sendTimeUs) / 1000;
      const e2e = (rec.lastChunkTimeUs - rec.sendTimeUs) / 1000;
      const chunks = inp.itlByRequest.get(rec.requestId);
      const itl = realItlMs(chunks === undefined ? undefined : tokenChunkRows(chunks, rec.outputTokens));
      if (judge(ttft, e2e, itl, t, a.real, missing)) a.realGood++;
    }
    const sim = inp.sims.get(rec.requestId);
    if (sim !== undefined) {
      const itl = sim.itlMeanUs > 0 ? sim.itlMeanUs / 1000 : undefined;
      if (judge(sim.ttftUs / 1000, sim.e2eUs / 1000, itl, t, a.sim, missing)) a.simGood++;
    }
  }
  const targets: Record<string, GoodputTargetsJson> = {};
  const perClass: Record<string, GoodputClassComparison> = {};
  for (const [cls, t] of inp.targets) {
    targets[cls] = { TTFTMs: t.ttftMs, ITLMs: t.itlMs, E2EMs: t.e2eMs };
    const a = acc.get(cls)!;
    const entry: GoodputClassComparison = {
      count: a.count,
      real_slo_attainment: ratio(a.realGood, a.count),
      sim_slo_attainment: ratio(a.simGood, a.count),
      real_goodput_rps: inp.runtimeSec > 0 ? a.realGood / inp.runtimeSec : 0,
      sim_goodput_rps: inp.runtimeSec > 0 ? a.simGood / inp.runtimeSec : 0,
    };
    const realDims = byDim(t, a.real);
    const simDims = byDim(t, a.sim);
    if (realDims !== undefined) entry.real_attainment_by_dim = realDims;
    if (simDims !== undefined) entry.sim_attainment_by_dim = simDims;
    perClass[cls] = entry;
  }
  return itlMissing ? { targets, per_class: perClass, skipped_itl: true } : { targets, per_class: perClass };
}

/** Seconds from the earliest send to the latest last chunk among the matched records. */
export function realRuntimeSec(records: readonly ObservedTraceRow[], matchedIds: ReadonlySet<number>): number {
  let first = -1;
  let last = 0;
  for (const r of records) {
    if (!matchedIds.has(r.requestId)) continue;
    if (first === -1 || r.sendTimeUs < first) first = r.sendTimeUs;
    if (r.lastChunkTimeUs > last) last = r.lastChunkTimeUs;
  }
  return first >= 0 && last > first ? (last - first) / 1e6 : 0;
}
