import { describeFound, formatParamPath, jsonSyntaxProblem, messageText, zodIssueTexts } from '@blis/policies/internal';
import * as z from 'zod';
import { CalibrationInputError } from './errors.js';
import { readResultsText } from './results-text.js';

// `blis calibrate --adapter-reference`: the simulator's workload aggregate against a LoRA
// digital twin's (DT) for the same arrivals, as BLIS compares them. The DT reports only a
// workload-wide mean TTFT and output throughput, so the comparison is per configuration, on those
// two numbers. With the adapter-blind run of both sides, the ratio aware ÷ blind cancels each
// side's base latency and isolates the adapter cost that was ported.

/** One side of a DT reference: its mean TTFT (ms) and completed output tokens a second. */
export interface DtAggregate {
  ttft: number;
  output_throughput: number;
}

/** A DT reference file: the adapter-aware run and the adapter-blind baseline of one configuration. */
export interface DtReference {
  model: string;
  adapter_aware: DtAggregate;
  /** Absent or zero: the delta-normalized diagnostic cannot be computed. */
  adapter_blind?: DtAggregate;
}

/** The simulator's side, from a metrics JSON: mean TTFT (ms) and output tokens over the run's duration. */
export interface SimAggregate {
  ttftMs: number;
  outputThroughput: number;
}

/** One metric of the comparison, under BLIS's report field names. */
export interface AdapterMetricComparison {
  metric: 'ttft' | 'throughput';
  dt_value: number;
  blis_value: number;
  /** |sim − DT| / DT, a fraction. */
  mape: number;
  within_threshold: boolean;
  /** The same error between the aware ÷ blind ratios; only with both blind runs and nonzero blind values. */
  delta_mape?: number;
}

/** The report `--report` receives in this mode (BLIS's `AdapterReferenceReport`). */
export interface AdapterReferenceReport {
  model: string;
  mape_threshold: number;
  metrics: AdapterMetricComparison[];
  all_within_threshold: boolean;
}

const positive = z.number('expected a positive number').positive('expected a positive number').refine(Number.isFinite, 'expected a finite number');
const nonNegative = z.number('expected a non-negative number').nonnegative('expected a non-negative number').refine(Number.isFinite, 'expected a finite number');

// The DT's own output has more (total_throughput, provenance): read what the comparison uses.
const DtReferenceSchema = z
  .object({
    model: z.string('expected a string').default(''),
    adapter_aware: z.object({ ttft: positive, output_throughput: positive }, 'expected an object with ttft and output_throughput').loose(),
    adapter_blind: z.object({ ttft: nonNegative, output_throughput: nonNegative }, 'expected an object with ttft and output_throughput').loose().optional(),
  })
  .loose();

const MetricsAggregateSchema = z
  .object({
    ttft_mean_ms: nonNegative,
    total_output_tokens: z.number('expected a non-negative integer').int('expected a non-negative integer').nonnegative('expected a non-negative integer'),
    vllm_estimated_duration_s: positive,
  })
  .loose();

function parseJsonObject(text: string, file: string, what: string): Record<string, unknown> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    const p = jsonSyntaxProblem(text, 'the end of the file');
    if (p === undefined) throw new CalibrationInputError([{ file, expected: what, found: messageText((e as Error).message) }]);
    throw new CalibrationInputError([{ file, line: p.line, expected: `${what}: ${p.expected}`, found: p.found === 'the end of the file' ? p.found : `${p.found} at column ${p.column}` }]);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new CalibrationInputError([{ file, expected: what, found: describeFound(raw) }]);
  return raw as Record<string, unknown>;
}

function schemaIssues(file: string, error: z.ZodError, raw: unknown): CalibrationInputError {
  return new CalibrationInputError(zodIssueTexts(error.issues, raw).map((t) => ({ file, field: formatParamPath(t.path, ''), expected: t.expected, found: t.found })));
}

/** A DT reference from its JSON text; `file` names it in errors. */
export function parseDtReference(text: string, file: string): DtReference {
  const raw = parseJsonObject(text, file, 'a DT reference JSON object (model, adapter_aware, adapter_blind)');
  const r = DtReferenceSchema.safeParse(raw);
  if (!r.success) throw schemaIssues(file, r.error, raw);
  const { model, adapter_aware, adapter_blind } = r.data;
  return {
    model,
    adapter_aware: { ttft: adapter_aware.ttft, output_throughput: adapter_aware.output_throughput },
    ...(adapter_blind !== undefined ? { adapter_blind: { ttft: adapter_blind.ttft, output_throughput: adapter_blind.output_throughput } } : {}),
  };
}

/**
 * The simulator's aggregate from a metrics JSON (`blis run|replay --metrics-path`, BLIS's or ours,
 * or the JSON `blis run` prints): `ttft_mean_ms`, and `total_output_tokens` over
 * `vllm_estimated_duration_s` as the output throughput.
 */
export function parseSimAggregate(text: string, file: string): SimAggregate {
  const raw = parseJsonObject(text, file, 'a metrics JSON object (`blis run --metrics-path`)');
  const r = MetricsAggregateSchema.safeParse(raw);
  if (!r.success) throw schemaIssues(file, r.error, raw);
  return { ttftMs: r.data.ttft_mean_ms, outputThroughput: r.data.total_output_tokens / r.data.vllm_estimated_duration_s };
}

export function readDtReference(path: string): DtReference {
  return parseDtReference(readResultsText(path, 'DT reference JSON file'), path);
}

export function readSimAggregate(path: string): SimAggregate {
  return parseSimAggregate(readResultsText(path, 'metrics JSON file'), path);
}

// |a − b| / |b|; a zero reference gives +∞ (an error that cannot pass), never a silent 0.
function ape(sim: number, dt: number): number {
  return dt === 0 ? Number.POSITIVE_INFINITY : Math.abs(sim - dt) / Math.abs(dt);
}

/**
 * Compares the simulator's adapter-aware aggregate (and, when given, its adapter-blind one) with
 * the DT reference on mean TTFT and output throughput. A metric is within the threshold when its
 * error is at most `threshold` (a fraction). The delta-normalized error compares aware ÷ blind
 * ratios; it is left out for a metric whose blind value is zero on either side.
 */
export function compareAdapterReference(ref: DtReference, aware: SimAggregate, blind: SimAggregate | undefined, threshold: number): AdapterReferenceReport {
  const dtBlind = ref.adapter_blind ?? { ttft: 0, output_throughput: 0 };
  const rows = [
    { metric: 'ttft', dt: ref.adapter_aware.ttft, sim: aware.ttftMs, dtBase: dtBlind.ttft, simBase: blind?.ttftMs },
    { metric: 'throughput', dt: ref.adapter_aware.output_throughput, sim: aware.outputThroughput, dtBase: dtBlind.output_throughput, simBase: blind?.outputThroughput },
  ] as const;
  const metrics = rows.map((s): AdapterMetricComparison => {
    const mape = ape(s.sim, s.dt);
    const m: AdapterMetricComparison = { metric: s.metric, dt_value: s.dt, blis_value: s.sim, mape, within_threshold: mape <= threshold };
    if (s.simBase !== undefined && s.simBase !== 0 && s.dtBase !== 0) m.delta_mape = ape(s.sim / s.simBase, s.dt / s.dtBase);
    return m;
  });
  return { model: ref.model, mape_threshold: threshold, metrics, all_within_threshold: metrics.every((m) => m.within_threshold) };
}

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;

/** The comparison as text: one line per metric with its verdict, as BLIS logs it. */
export function formatAdapterReference(report: AdapterReferenceReport): string {
  const lines = [`adapter-reference comparison: ${report.model === '' ? '(no model named)' : report.model}, MAPE threshold ${(report.mape_threshold * 100).toFixed(0)}%`];
  for (const m of report.metrics) {
    const delta = m.delta_mape !== undefined ? ` delta-normalized MAPE=${pct(m.delta_mape)}` : '';
    lines.push(`  ${m.metric.padEnd(11)} BLIS=${m.blis_value.toFixed(2)} DT=${m.dt_value.toFixed(2)} MAPE=${pct(m.mape)} [${m.within_threshold ? 'WITHIN' : 'EXCEEDS'}]${delta}`);
  }
  return `${lines.join('\n')}\n`;
}
