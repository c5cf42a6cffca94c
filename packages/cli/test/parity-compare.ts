import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type RequestRecord, type SimulationConfigInput, type SimulationResult, simulate } from '@blis/cluster';

// Request-level parity with the Go BLIS (issue 8), shared by `pnpm parity` (tools/parity.ts)
// and packages/cli/test/parity.test.ts so that both judge a run by the same rules.

export const FIXTURE_DIR = fileURLToPath(new URL('./fixtures/blis-parity/', import.meta.url));
/** BLIS HEAD (f90a1e3a) reference runs of its roofline and trained-physics models, same trace. */
export const HEAD_FIXTURE_DIR = fileURLToPath(new URL('./fixtures/blis-head-parity/', import.meta.url));
export const TRACE_PATH = `${FIXTURE_DIR}azurecode2k.csv`;

/** The reference configuration (fixture README): every knob that shapes the numbers, explicit. */
export const REFERENCE = {
  model: 'meta-llama/llama-3.1-8b-instruct',
  hardware: 'H100',
  tp: 1,
  /** Blackbox coefficients of the vLLM v0.11.0 entry for llama-3.1-8b-instruct on H100, TP 1. */
  vllmVersion: 'vllm/vllm-openai:v0.11.0',
  alpha: [10326.268121600151, 0, 0] as [number, number, number],
  beta: [6472.007648778123, 19.79721387814611, 304.4021040302657] as [number, number, number],
  totalKVBlocks: 7463,
  blockSizeTokens: 16,
  maxNumSeqs: 256,
  maxNumBatchedTokens: 2048,
  longPrefillTokenThreshold: 0,
  seed: 42,
  routing: 'round-robin',
} as const;

export interface ParityRun {
  /** Folder of the reference outputs under the fixture directory. */
  name: string;
  numInstances: number;
  /** The latency model; blackbox (the default) runs use the reference coefficients. */
  latencyModel?: 'blackbox' | 'roofline' | 'trained-physics';
  /** Fixture directory holding `name`; the b563c440 blackbox set by default. */
  dir?: string;
  /** A TraceV2 pair other than azurecode2k (header and data). */
  trace?: { header: string; data: string };
  /** KV blocks per instance other than the reference's 7,463. */
  totalKVBlocks?: number;
  /** Routing other than round-robin (BLIS's defaults for everything else: scorers, refresh, signal delay). */
  routing?: 'weighted';
  /**
   * result.json fields compared otherwise, each with the reason:
   * - `meanOfInstances`: BLIS prints the cluster `cache_hit_rate` as the unweighted mean of its
   *   instances' rates, ours pools blocks over them; our instances' mean is compared instead;
   * - `skip`: fields whose definitions differ on purpose (docs/engine-semantics.md).
   */
  aggregate?: { meanOfInstances?: readonly string[]; skip?: Readonly<Record<string, string>> };
}

export const PARITY_RUNS: readonly ParityRun[] = [
  { name: 'azurecode2k-1', numInstances: 1 },
  { name: 'azurecode2k-4rr', numInstances: 4 },
];

/** BLIS HEAD's backends on the same trace: coefficients are BLIS's defaults, not flags. */
export const HEAD_PARITY_RUNS: readonly ParityRun[] = [
  { name: 'roofline-1', numInstances: 1, latencyModel: 'roofline', dir: HEAD_FIXTURE_DIR },
  { name: 'roofline-4rr', numInstances: 4, latencyModel: 'roofline', dir: HEAD_FIXTURE_DIR },
  { name: 'trained-physics-1', numInstances: 1, latencyModel: 'trained-physics', dir: HEAD_FIXTURE_DIR },
  { name: 'trained-physics-4rr', numInstances: 4, latencyModel: 'trained-physics', dir: HEAD_FIXTURE_DIR },
];

const isBlackbox = (run: ParityRun) => (run.latencyModel ?? 'blackbox') === 'blackbox';

/**
 * BLIS HEAD with its listed defects removed (`blis-defects-removed.patch` in the fixture) on a
 * prefix-group trace and on tight KV caches: every fixture of this list was made with that build.
 */
const PREFIX_TRACE = { header: `${HEAD_FIXTURE_DIR}prefix2k.yaml`, data: `${HEAD_FIXTURE_DIR}prefix2k.csv` };
/** Aggregate ITL statistics count every token a step delivered, also of an attempt later preempted; BLIS's only the completed attempt's. */
const PREEMPTION_ITL = {
  itl_mean_ms: 'tokens of preempted attempts count (ours)',
  itl_p90_ms: 'tokens of preempted attempts count (ours)',
  itl_p95_ms: 'tokens of preempted attempts count (ours)',
  itl_p99_ms: 'tokens of preempted attempts count (ours)',
};
const MEAN_HIT_RATE = ['cache_hit_rate'] as const;
export const FIDELITY_RUNS: readonly ParityRun[] = [
  { name: 'prefix-1', numInstances: 1, latencyModel: 'trained-physics', dir: HEAD_FIXTURE_DIR, trace: PREFIX_TRACE },
  { name: 'prefix-4rr', numInstances: 4, latencyModel: 'trained-physics', dir: HEAD_FIXTURE_DIR, trace: PREFIX_TRACE, aggregate: { meanOfInstances: MEAN_HIT_RATE } },
  { name: 'prefix-4w', numInstances: 4, latencyModel: 'trained-physics', dir: HEAD_FIXTURE_DIR, trace: PREFIX_TRACE, routing: 'weighted', aggregate: { meanOfInstances: MEAN_HIT_RATE } },
  {
    name: 'prefix-tight500-4w',
    numInstances: 4,
    latencyModel: 'trained-physics',
    dir: HEAD_FIXTURE_DIR,
    trace: PREFIX_TRACE,
    routing: 'weighted',
    totalKVBlocks: 500,
    aggregate: { meanOfInstances: MEAN_HIT_RATE, skip: PREEMPTION_ITL },
  },
  { name: 'tight600-1', numInstances: 1, latencyModel: 'trained-physics', dir: HEAD_FIXTURE_DIR, totalKVBlocks: 600, aggregate: { skip: { itl_mean_ms: PREEMPTION_ITL.itl_mean_ms } } },
  { name: 'tight1500-1', numInstances: 1, latencyModel: 'trained-physics', dir: HEAD_FIXTURE_DIR, totalKVBlocks: 1500 },
  { name: 'tight300-4rr', numInstances: 4, latencyModel: 'trained-physics', dir: HEAD_FIXTURE_DIR, totalKVBlocks: 300, aggregate: { meanOfInstances: MEAN_HIT_RATE, skip: PREEMPTION_ITL } },
];

/** The run as a `simulate()` configuration. */
export function simulationConfig(run: ParityRun): SimulationConfigInput {
  return {
    seed: REFERENCE.seed,
    numInstances: run.numInstances,
    model: REFERENCE.model,
    hardware: REFERENCE.hardware,
    tp: REFERENCE.tp,
    latencyModel: run.latencyModel ?? 'blackbox',
    ...(isBlackbox(run) ? { alphaCoeffs: [...REFERENCE.alpha], betaCoeffs: [...REFERENCE.beta] } : {}),
    totalKVBlocks: run.totalKVBlocks ?? REFERENCE.totalKVBlocks,
    blockSizeTokens: REFERENCE.blockSizeTokens,
    maxNumSeqs: REFERENCE.maxNumSeqs,
    maxNumBatchedTokens: REFERENCE.maxNumBatchedTokens,
    longPrefillTokenThreshold: REFERENCE.longPrefillTokenThreshold,
    routing: { policy: run.routing ?? REFERENCE.routing },
    workload: run.trace !== undefined ? { kind: 'trace', path: run.trace.header, dataPath: run.trace.data } : { kind: 'trace', path: TRACE_PATH, format: 'tracev2' },
    includeRequests: true,
  };
}

/** The same run as `blis replay` arguments (after the program name). */
export function cliArgs(run: ParityRun, resultsPath: string): string[] {
  return [
    'replay',
    ...(run.trace !== undefined ? ['--trace-header', run.trace.header, '--trace-data', run.trace.data] : ['--trace', TRACE_PATH, '--trace-format', 'tracev2']),
    '--model',
    REFERENCE.model,
    '--hardware',
    REFERENCE.hardware,
    '--tp',
    String(REFERENCE.tp),
    '--latency-model',
    run.latencyModel ?? 'blackbox',
    ...(isBlackbox(run) ? ['--alpha-coeffs', REFERENCE.alpha.join(','), '--beta-coeffs', REFERENCE.beta.join(',')] : []),
    '--total-kv-blocks',
    String(run.totalKVBlocks ?? REFERENCE.totalKVBlocks),
    '--block-size-in-tokens',
    String(REFERENCE.blockSizeTokens),
    '--max-num-seqs',
    String(REFERENCE.maxNumSeqs),
    '--max-num-batched-tokens',
    String(REFERENCE.maxNumBatchedTokens),
    '--long-prefill-token-threshold',
    String(REFERENCE.longPrefillTokenThreshold),
    '--seed',
    String(REFERENCE.seed),
    '--num-instances',
    String(run.numInstances),
    '--routing-policy',
    run.routing ?? REFERENCE.routing,
    '--results-path',
    resultsPath,
  ];
}

/** One row of the Go BLIS's requests.csv. */
export interface ReferenceRequest {
  id: string;
  /** BLIS labels this column ms but writes seconds (arrival µs / 1e6). */
  arrivalColumn: number;
  inputTokens: number;
  outputTokens: number;
  handledBy: string;
  ttftMs: number;
  itlMs: number;
  e2eMs: number;
  schedulingDelayMs: number;
}

export interface Reference {
  requests: ReferenceRequest[];
  result: Record<string, unknown>;
}

export function loadReference(run: ParityRun): Reference {
  const dir = `${run.dir ?? FIXTURE_DIR}${run.name}/`;
  const lines = readFileSync(`${dir}requests.csv`, 'utf8').split(/\r?\n/).filter((l) => l.length > 0);
  const header = lines[0].split(',');
  const want = ['request_id', 'arrival_ms', 'input_tokens', 'output_tokens', 'handled_by', 'ttft_ms', 'itl_ms', 'e2e_ms', 'scheduling_delay_ms'];
  if (header.join(',') !== want.join(',')) throw new Error(`${dir}requests.csv: expected header ${want.join(',')}, found ${lines[0]}`);
  const requests = lines.slice(1).map((line, i) => {
    const f = line.split(',');
    if (f.length !== want.length) throw new Error(`${dir}requests.csv:${i + 2}: expected ${want.length} fields, found ${f.length}`);
    return {
      id: f[0],
      arrivalColumn: Number(f[1]),
      inputTokens: Number(f[2]),
      outputTokens: Number(f[3]),
      handledBy: f[4],
      ttftMs: Number(f[5]),
      itlMs: Number(f[6]),
      e2eMs: Number(f[7]),
      schedulingDelayMs: Number(f[8]),
    };
  });
  const result = JSON.parse(readFileSync(`${dir}result.json`, 'utf8')) as Record<string, unknown>;
  return { requests, result };
}

/** Per-request fields compared, with how a difference is measured. */
export const REQUEST_FIELDS = ['instance', 'ttft', 'e2e', 'itl', 'scheduling_delay'] as const;
export type RequestField = (typeof REQUEST_FIELDS)[number];

export interface FieldStats {
  mismatches: number;
  /** Largest |ours - reference| in µs (for `instance`: 1 when any request moved). */
  maxDiffUs: number;
  /** A request where the largest difference occurs. */
  worstId?: string;
}

export interface AggregateDiff {
  field: string;
  reference: unknown;
  ours: unknown;
}

export interface RunComparison {
  run: string;
  total: number;
  /** Requests equal in every field. */
  exact: number;
  fields: Record<RequestField, FieldStats>;
  /** Reference requests absent from our output, and ours absent from the reference. */
  missing: string[];
  extra: string[];
  /** Requests whose identity (arrival, lengths) differs: the trace was not read alike. */
  misread: string[];
  aggregateFields: number;
  aggregateDiffs: AggregateDiff[];
}

/** Milliseconds with 3 decimals to exact integer µs. */
const us = (ms: number): number => Math.round(ms * 1000);

/**
 * Compares our run with the reference: for every request the instance, TTFT, E2E and
 * scheduling delay to the µs, the per-request mean ITL exactly (it is a ratio of µs sums, so the
 * float64 values must agree), and every field of the reference `result.json` exactly (Go and JS
 * both print the shortest round-tripping decimal, so equal numbers are equal as printed).
 */
export function compareRun(
  run: string,
  ref: Reference,
  oursRequests: readonly RequestRecord[],
  oursResult: Record<string, unknown>,
  aggregate: ParityRun['aggregate'] = {},
): RunComparison {
  const byId = new Map(oursRequests.map((r) => [r.request_id, r]));
  const fields = Object.fromEntries(REQUEST_FIELDS.map((f) => [f, { mismatches: 0, maxDiffUs: 0 }])) as Record<RequestField, FieldStats>;
  const note = (f: RequestField, diffUs: number, id: string) => {
    if (diffUs === 0) return false;
    const s = fields[f];
    s.mismatches++;
    if (diffUs > s.maxDiffUs) {
      s.maxDiffUs = diffUs;
      s.worstId = id;
    }
    return true;
  };
  const missing: string[] = [];
  const misread: string[] = [];
  let exact = 0;
  for (const r of ref.requests) {
    const o = byId.get(r.id);
    if (o === undefined) {
      missing.push(r.id);
      continue;
    }
    if (o.input_tokens !== r.inputTokens || o.output_tokens !== r.outputTokens || us(o.arrival_ms) !== Math.round(r.arrivalColumn * 1e6)) misread.push(r.id);
    let bad = false;
    bad = note('instance', o.handled_by === r.handledBy ? 0 : 1, r.id) || bad;
    bad = note('ttft', Math.abs(us(o.ttft_ms) - us(r.ttftMs)), r.id) || bad;
    bad = note('e2e', Math.abs(us(o.e2e_ms) - us(r.e2eMs)), r.id) || bad;
    bad = note('scheduling_delay', Math.abs(us(o.scheduling_delay_ms) - us(r.schedulingDelayMs)), r.id) || bad;
    // Any float difference counts; it is reported in µs.
    bad = note('itl', o.itl_ms === r.itlMs ? 0 : Math.max(Math.abs(o.itl_ms - r.itlMs) * 1000, Number.MIN_VALUE), r.id) || bad;
    if (!bad) exact++;
  }
  const refIds = new Set(ref.requests.map((r) => r.id));
  const extra = oursRequests.filter((r) => !refIds.has(r.request_id)).map((r) => r.request_id);
  const aggregateDiffs: AggregateDiff[] = [];
  const keys = Object.keys(ref.result).filter((k) => aggregate.skip?.[k] === undefined);
  const instances = (oursResult.instances ?? []) as Record<string, unknown>[];
  for (const field of keys) {
    const ours = aggregate.meanOfInstances?.includes(field) ? instances.reduce((a, i) => a + (i[field] as number), 0) / instances.length : oursResult[field];
    if (!Object.is(ours, ref.result[field])) aggregateDiffs.push({ field, reference: ref.result[field], ours });
  }
  return { run, total: ref.requests.length, exact, fields, missing, extra, misread, aggregateFields: keys.length, aggregateDiffs };
}

export function isExactMatch(c: RunComparison): boolean {
  return c.exact === c.total && c.missing.length === 0 && c.extra.length === 0 && c.misread.length === 0 && c.aggregateDiffs.length === 0;
}

/** A human-readable report: share exact, largest difference per field, differing aggregates. */
export function formatComparison(c: RunComparison): string {
  const pct = c.total === 0 ? 0 : (100 * c.exact) / c.total;
  const lines = [`${c.run}: ${c.exact}/${c.total} requests exact (${pct.toFixed(2)}%)${isExactMatch(c) ? '' : '  MISMATCH'}`];
  for (const f of REQUEST_FIELDS) {
    const s = c.fields[f];
    const diff = f === 'instance' ? '' : `, largest difference ${formatUs(s.maxDiffUs)}${s.worstId !== undefined ? ` (request ${s.worstId})` : ''}`;
    lines.push(`  ${f.padEnd(17)} ${s.mismatches === 0 ? 'all equal' : `${s.mismatches} differ${diff}`}`);
  }
  if (c.missing.length > 0) lines.push(`  missing from our output: ${c.missing.length} (first: ${c.missing.slice(0, 5).join(', ')})`);
  if (c.extra.length > 0) lines.push(`  not in the reference: ${c.extra.length} (first: ${c.extra.slice(0, 5).join(', ')})`);
  if (c.misread.length > 0) lines.push(`  arrival or lengths differ (trace read differently): ${c.misread.length} (first: ${c.misread.slice(0, 5).join(', ')})`);
  const agg = c.aggregateFields - c.aggregateDiffs.length;
  lines.push(`  result.json       ${agg}/${c.aggregateFields} fields equal as printed`);
  for (const d of c.aggregateDiffs) lines.push(`    ${d.field}: reference ${JSON.stringify(d.reference)}, ours ${JSON.stringify(d.ours)}`);
  return lines.join('\n');
}

function formatUs(v: number): string {
  if (v === 0) return '0 µs';
  if (v < 0.001) return '< 0.001 µs';
  return `${Number(v.toPrecision(6))} µs`;
}

/** Replays a reference run through the library. */
export function simulateRun(run: ParityRun): SimulationResult {
  return simulate(simulationConfig(run));
}

/** Replays a reference run through `simulate()` and compares it. */
export function compareLibraryRun(run: ParityRun): RunComparison {
  const result = simulateRun(run);
  return compareRun(run.name, loadReference(run), result.requests ?? [], result, run.aggregate);
}
