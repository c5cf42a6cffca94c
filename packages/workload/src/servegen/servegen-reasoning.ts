import { GoRand } from '../go-rand/go-rand.js';
import type { BlisCohort } from '../convert/blis-spec-document.js';
import { goInt } from './go-parse.js';
import { SERVEGEN_WINDOW_SEC, readTraceRows } from './servegen-chunk.js';
import { parseDatasetJson } from './servegen-dataset.js';
import { type ServeGenFiles, type ServeGenLog, ServeGenError, chunkOf } from './servegen-files.js';
import { SERVEGEN_SLO_CLASSES } from './servegen-language.js';
import { servegenCohortBase } from './servegen-cohort.js';
import { addChunkFits, emptySums } from './servegen-lognormal.js';
import { parseRatioPdf } from './servegen-pdf.js';

/** The 10-minute window of the day in which the most chunks are active (BLIS's findBestCoverageWindow). */
function bestCoverageWindow(files: ServeGenFiles, log: ServeGenLog): number {
  const coverage = new Map<number, number>();
  for (const f of files.traceFiles) {
    const rows = readTraceRows(files, f, log);
    if ('error' in rows) continue;
    for (const r of rows.rows) {
      const idx = goInt(r.startSec / SERVEGEN_WINDOW_SEC);
      if (r.rate > 0) coverage.set(idx, (coverage.get(idx) ?? 0) + 1);
    }
  }
  let best = 0;
  let max = 0;
  for (let i = 0; i < 86400 / SERVEGEN_WINDOW_SEC; i++)
    if ((coverage.get(i) ?? 0) > max) {
      max = coverage.get(i)!;
      best = i;
    }
  if (max === 0) throw new ServeGenError(files.dir, 'a trace window with an active chunk', 'none (every trace unreadable, or every rate 0)');
  return best;
}

/** A chunk's rate in the window starting at `second` (its first row there), 0 when none. */
function rateAt(files: ServeGenFiles, traceFile: string, second: number, log: ServeGenLog): number {
  const rows = readTraceRows(files, traceFile, log);
  if ('error' in rows) {
    log.warn(`skipping ${traceFile}: ${rows.error}`);
    return 0;
  }
  return rows.rows.find((r) => goInt(r.startSec) === second)?.rate ?? 0;
}

/** The first reason_ratio PMF of a chunk's dataset, by window key in byte order. */
function reasonRatio(files: ServeGenFiles, dataset: string, log: ServeGenLog): Map<number, number> | undefined {
  const text = files.read(dataset);
  const json = 'error' in text ? text : parseDatasetJson(text.text);
  if ('error' in json) {
    log.warn(`skipping ${dataset}: ${json.error}`);
    return undefined;
  }
  for (const [, w] of [...json.windows].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    const t = w.reason_ratio;
    if (t === undefined || t === '' || t === '{}') continue;
    const pdf = parseRatioPdf(t);
    if ('pdf' in pdf) return pdf.pdf;
  }
  log.warn(`skipping ${dataset}: no valid reason_ratio`);
  return undefined;
}

/**
 * The chunks' reason-ratio PMFs averaged element-wise over percentages 0-100 (ratios summed in
 * ascending order per chunk, then divided by the chunk count): BLIS's empirical distribution.
 */
function averagedReasonRatio(pmfs: readonly Map<number, number>[]): Record<string, number> {
  const sums = new Map<number, number>();
  for (const pmf of pmfs)
    for (const ratio of [...pmf.keys()].sort((a, b) => a - b)) {
      // Go's int(NaN) on amd64 is the most negative int, clamped to 0 here.
      const raw = Number.isNaN(ratio * 100) ? 0 : Math.trunc(ratio * 100);
      const pct = Math.min(100, Math.max(0, raw));
      sums.set(pct, (sums.get(pct) ?? 0) + pmf.get(ratio)!);
    }
  const params: Record<string, number> = {};
  for (const pct of [...sums.keys()].sort((a, b) => a - b)) params[String(pct)] = sums.get(pct)! / pmfs.length;
  return params;
}

/**
 * BLIS's conversion of reasoning ServeGen data (buildReasoningCohorts): one window, the one
 * most chunks are active in; the chunks shuffled (from `seed`, 42 for `blis convert`) into five SLO cohorts of open-loop
 * single-round sessions with the averaged reason-ratio PMF, each a spike of `windowSec` at 0.
 */
export function reasoningCohorts(files: ServeGenFiles, windowSec: number, log: ServeGenLog, seed = 42): BlisCohort[] {
  const rng = GoRand.fromSeed(seed);
  const second = bestCoverageWindow(files, log) * SERVEGEN_WINDOW_SEC;
  log.info(`reasoning window ${second / SERVEGEN_WINDOW_SEC} (${second} s), the one most chunks are active in`);
  const chunks: { traceFile: string; dataset: string; ratio: Map<number, number> }[] = [];
  for (const f of files.traceFiles) {
    const { dataset } = chunkOf(f);
    const ratio = reasonRatio(files, dataset, log);
    if (ratio !== undefined) chunks.push({ traceFile: f, dataset, ratio });
  }
  if (chunks.length === 0) throw new ServeGenError(files.dir, 'a reasoning chunk with a reason_ratio PMF', 'none');
  const ratioDist = { type: 'empirical', params: averagedReasonRatio(chunks.map((c) => c.ratio)) };
  let total = 0;
  for (const f of files.traceFiles) total += rateAt(files, f, second, log);
  if (total <= 0) throw new ServeGenError(files.dir, `an active chunk in the selected window (${second} s)`, 'a total rate of 0');
  const shuffled = [...chunks];
  rng.shuffle(shuffled.length, (i, j) => {
    [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
  });
  const groups = new Map<string, typeof chunks>();
  shuffled.forEach((c, i) => {
    const slo = SERVEGEN_SLO_CLASSES[i % 5];
    groups.set(slo, [...(groups.get(slo) ?? []), c]);
  });
  const cohorts: BlisCohort[] = [];
  for (const slo of [...SERVEGEN_SLO_CLASSES].sort()) {
    const members = groups.get(slo);
    if (members === undefined) continue;
    const id = `reasoning-${slo}`;
    let rate = 0;
    for (const c of members) rate += rateAt(files, c.traceFile, second, log);
    if (rate <= 0) {
      log.warn(`skipping cohort ${id}: no active chunk in the selected window`);
      continue;
    }
    const sums = emptySums();
    for (const c of members) addChunkFits(files, c.dataset, second, sums, true, log, id);
    if (sums.count === 0) {
      log.warn(`skipping cohort ${id}: no input and output lengths to fit`);
      continue;
    }
    cohorts.push({
      ...servegenCohortBase(id, slo, members.length, sums),
      closed_loop: false,
      arrival: { process: 'poisson' },
      spike: { start_time_us: 0, duration_us: windowSec * 1e6, trace_rate: rate },
      reasoning: { reason_ratio_distribution: ratioDist, multi_turn: { max_rounds: 1, think_time_us: 0, context_growth: '', single_session: false } },
    });
  }
  if (cohorts.length === 0) throw new ServeGenError(files.dir, 'a reasoning cohort', 'none (every group empty or inactive)');
  return cohorts;
}
