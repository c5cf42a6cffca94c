import type { BlisCohort, BlisWorkloadSpec } from '../convert/blis-spec-document.js';
import { parseDatasetJson } from './servegen-dataset.js';
import { type ServeGenFiles, type ServeGenLog, ServeGenError, chunkOf } from './servegen-files.js';
import { type ServeGenPeriod, languageCohorts } from './servegen-language.js';
import { reasoningCohorts } from './servegen-reasoning.js';

export interface ServeGenConvertOptions {
  /** Seconds each period lasts (BLIS's --window-duration-seconds, 600). */
  windowSec: number;
  /** Seconds between periods (--drain-timeout-seconds, 180). */
  drainSec: number;
  /** Keep only this period's cohorts (--time). */
  period?: ServeGenPeriod;
  /** Seed of the window draws and chunk shuffles: 42 (`blis convert`), or a spec's own seed. */
  seed?: number;
}

/** Reasoning data carries a reason_ratio in its first chunk's dataset (BLIS's detection). */
function isReasoning(files: ServeGenFiles, log: ServeGenLog): boolean {
  if (files.traceFiles.length === 0) return false;
  const { dataset } = chunkOf(files.traceFiles[0]);
  const text = files.read(dataset);
  const json = 'error' in text ? text : parseDatasetJson(text.text);
  if ('error' in json) {
    log.warn(`reasoning detection: ${dataset}: ${json.error} (read as language data)`);
    return false;
  }
  return json.windows.some(([, w]) => 'reason_ratio' in w);
}

const positive = (v: number | undefined) => v === undefined || (Number.isFinite(v) && v > 0);

/**
 * BLIS's validation of the converted spec (WorkloadSpec.Validate, for what a conversion can
 * produce): an averaged CV, shape or scale of 0 (windows without a fitted pattern) is refused
 * there, and so here, naming the cohort.
 */
function cohortProblem(c: BlisCohort): { field: string; found: string } | undefined {
  const a = c.arrival;
  if (!['poisson', 'gamma', 'weibull', 'constant'].includes(a.process)) return { field: 'arrival.process', found: JSON.stringify(a.process) };
  const explicit = a.shape !== undefined && a.scale !== undefined && a.shape > 0 && a.scale > 0;
  if (a.process === 'weibull' && a.cv !== undefined && !explicit && !(a.cv >= 0.01 && a.cv <= 10.4)) return { field: 'arrival.cv (weibull: in [0.01, 10.4])', found: String(a.cv) };
  for (const k of ['cv', 'shape', 'scale'] as const) if (!positive(a[k])) return { field: `arrival.${k} (positive)`, found: String(a[k]) };
  for (const [name, d] of [['input_distribution', c.input_distribution], ['output_distribution', c.output_distribution]] as const)
    for (const [k, v] of Object.entries(d.params ?? {})) if (!Number.isFinite(v)) return { field: `${name}.params.${k} (finite)`, found: String(v) };
  if (c.spike !== undefined && !positive(c.spike.trace_rate)) return { field: 'spike.trace_rate (positive)', found: String(c.spike.trace_rate) };
  return undefined;
}

/**
 * `blis convert servegen`: a ServeGen data directory as the v2 spec of cohorts BLIS HEAD's
 * ConvertServeGen writes (seed 42, absolute rates: aggregate_rate 0 and a trace_rate per cohort).
 */
export function convertServeGen(files: ServeGenFiles, opts: ServeGenConvertOptions, log: ServeGenLog): BlisWorkloadSpec {
  const reasoning = isReasoning(files, log);
  if (!reasoning && files.traceFiles.length === 0) throw new ServeGenError(files.dir, 'ServeGen data: chunk-<id>-trace.csv files', 'none');
  if (reasoning) {
    log.info(`reasoning data (reason_ratio in ${chunkOf(files.traceFiles[0]).dataset})`);
    if (opts.period !== undefined) throw new ServeGenError(files.dir, 'no --time for reasoning data (it has one window, no periods)', `--time ${opts.period}`);
  }
  const seed = opts.seed ?? 42;
  let cohorts = reasoning ? reasoningCohorts(files, opts.windowSec, log, seed) : languageCohorts(files, opts.windowSec, opts.drainSec, log, seed);
  if (opts.period !== undefined) {
    const prefix = `${opts.period}-`;
    cohorts = cohorts.filter((c) => c.id.startsWith(prefix));
    if (cohorts.length === 0) throw new ServeGenError(files.dir, `a cohort in the ${opts.period} period`, 'none');
    log.info(`kept the ${cohorts.length} cohort(s) of the ${opts.period} period`);
  }
  cohorts.forEach((c, i) => {
    const p = cohortProblem(c);
    if (p !== undefined) throw new ServeGenError(files.dir, `data whose cohort[${i}] (${c.id}) has a valid ${p.field}, as BLIS validates the converted spec`, p.found);
  });
  return { version: '2', seed, category: reasoning ? 'reasoning' : '', clients: [], cohorts, aggregate_rate: 0, num_requests: 0 };
}
