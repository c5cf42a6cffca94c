import { GoRand } from '../go-rand/go-rand.js';
import type { BlisArrival, BlisCohort } from '../convert/blis-spec-document.js';
import { type Chunk, atTimeOfDay, loadChunk } from './servegen-chunk.js';
import { type ServeGenFiles, type ServeGenLog, ServeGenError } from './servegen-files.js';
import { servegenCohortBase } from './servegen-cohort.js';
import { addChunkFits, emptySums } from './servegen-lognormal.js';

/** BLIS's SLO classes, in its round-robin order. */
export const SERVEGEN_SLO_CLASSES = ['critical', 'standard', 'batch', 'sheddable', 'background'] as const;

/** ServeGen's day 1 periods BLIS samples: 30 minutes at midnight, 08:00 and 14:00. */
const PERIODS: readonly { name: ServeGenPeriod; spanStart: number }[] = [
  { name: 'midnight', spanStart: 0 },
  { name: 'morning', spanStart: 28800 },
  { name: 'afternoon', spanStart: 50400 },
];

/** A ServeGen day-1 period BLIS samples. */
export type ServeGenPeriod = 'midnight' | 'morning' | 'afternoon';
export const SERVEGEN_PERIODS: readonly ServeGenPeriod[] = PERIODS.map((p) => p.name);

/**
 * Arrival parameters averaged over a cohort's windows at the period's time of day (BLIS's
 * BC-4): the majority process (Gamma on a tie, and when every window is Poisson), and the plain
 * means of CV, shape and scale, a window without one adding 0.
 */
function averagedArrival(chunks: readonly Chunk[], second: number): BlisArrival | undefined {
  let cv = 0;
  let shape = 0;
  let scale = 0;
  let n = 0;
  let gamma = 0;
  let weibull = 0;
  for (const c of chunks)
    for (const w of c.windows) {
      if (!atTimeOfDay(w, second)) continue;
      cv += w.arrival.cv ?? 0;
      shape += w.arrival.shape ?? 0;
      scale += w.arrival.scale ?? 0;
      n++;
      if (w.arrival.process === 'gamma') gamma++;
      else if (w.arrival.process === 'weibull') weibull++;
    }
  if (n === 0) return undefined;
  return { process: weibull > gamma ? 'weibull' : 'gamma', cv: cv / n, shape: shape / n, scale: scale / n };
}

/**
 * BLIS's multi-period conversion of language (and multimodal) ServeGen data
 * (loadServeGenData): one 10-minute window drawn per period (from `seed`: 42 for `blis convert`,
 * the spec's own for a spec's `servegen_data`), the chunks active then
 * shuffled into five SLO cohorts, each cohort's rates summed, arrivals and lengths averaged,
 * and placed as a spike: midnight at 0, morning and afternoon after a window plus a drain each.
 */
export function languageCohorts(files: ServeGenFiles, windowSec: number, drainSec: number, log: ServeGenLog, seed = 42): BlisCohort[] {
  const rng = GoRand.fromSeed(seed);
  const chunks: Chunk[] = [];
  for (const f of files.traceFiles) {
    const c = loadChunk(files, f, log);
    if (c !== undefined) chunks.push(c);
  }
  if (chunks.length === 0) throw new ServeGenError(files.dir, 'a chunk with an active window (a positive rate and a dataset window at or before it)', 'none');
  const selected = PERIODS.map((p) => p.spanStart + rng.intn(3) * 600);
  const byPeriod = selected.map((second) => chunks.filter((c) => c.windows.some((w) => atTimeOfDay(w, second))));
  const groups = new Map<string, Chunk[]>();
  byPeriod.forEach((members, p) => {
    if (members.length === 0) return;
    const shuffled = [...members];
    rng.shuffle(shuffled.length, (i, j) => {
      [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
    });
    shuffled.forEach((c, i) => {
      const key = `${p}\u0000${SERVEGEN_SLO_CLASSES[i % 5]}`;
      groups.set(key, [...(groups.get(key) ?? []), c]);
    });
  });
  const keys = [...groups.keys()].map((k) => k.split('\u0000') as [string, string]).sort((a, b) => Number(a[0]) - Number(b[0]) || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  const cohorts: BlisCohort[] = [];
  for (const [pText, slo] of keys) {
    const p = Number(pText);
    const members = groups.get(`${pText}\u0000${slo}`)!;
    const id = `${PERIODS[p].name}-${slo}`;
    const second = selected[p];
    const sums = emptySums();
    let rate = 0;
    for (const c of members) {
      if (!addChunkFits(files, c.dataset, second, sums, false, log, id)) continue;
      let sum = 0;
      let n = 0;
      for (const w of c.windows)
        if (atTimeOfDay(w, second)) {
          sum += w.rate;
          n++;
        }
      if (n > 0) rate += sum / n;
    }
    const arrival = averagedArrival(members, second);
    if (rate <= 0) {
      log.warn(`skipping cohort ${id}: zero rate at its window (${second} s)`);
      continue;
    }
    cohorts.push({
      ...servegenCohortBase(id, slo, members.length, sums),
      arrival: arrival ?? { process: '' },
      spike: { start_time_us: p * (windowSec + drainSec) * 1e6, duration_us: windowSec * 1e6, trace_rate: rate },
    });
  }
  if (cohorts.length === 0) throw new ServeGenError(files.dir, 'an active cohort', 'none (every chunk filtered out)');
  return cohorts;
}
