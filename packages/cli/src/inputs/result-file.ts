import { basename } from 'node:path';
import type { SimulationResult } from '@blis/cluster';
import { describeFound, formatParamPath, jsonSyntaxProblem, messageText, zodIssueTexts } from '@blis/policies/internal';
import { readBoundedText } from '@blis/workload/internal';
import * as z from 'zod';
import { requireReadable } from './input-files.js';
import { UsageError } from '../errors/usage-error.js';

/**
 * What `blis report` needs of a result file (`blis run --results-path`, or its stdout saved):
 * the fields its sections read, checked before anything is drawn. Everything else passes
 * through, so a result with more sections than this CLI knows still reports.
 */
const num = z.number();
const count = z.number().int().nonnegative();

const MetricsBlockSchema = z.looseObject({
  instance_id: z.string(),
  completed_requests: count,
  injected_requests: count,
  preemption_count: count,
  dropped_unservable: count,
  timed_out_requests: count,
  rejected_requests: count,
  cache_hit_rate: num,
});

const RequestSchema = z.looseObject({
  request_id: z.string(),
  arrival_ms: num,
  handled_by: z.string(),
  ttft_ms: num,
  itl_ms: num,
  e2e_ms: num,
  slo_class: z.string().optional(),
  tenant: z.string().optional(),
});

const nullableSeries = z.array(z.number().nullable());

const series = (keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, nullableSeries.optional()]));

const TimeseriesSchema = z.looseObject({
  interval_ms: num,
  t_ms: z.array(num),
  instances: z.array(z.looseObject({ instance_id: z.string(), ...series(['queue_depth', 'running', 'kv_utilization', 'cache_hit_rate', 'completed']) })),
  cluster: z.looseObject(series(['queue_depth', 'running', 'completed', 'gateway_queue', 'replicas', 'routable', 'cost_usd', 'kv_transfers'])).optional(),
});

export const ResultFileSchema = MetricsBlockSchema.extend({
  vllm_estimated_duration_s: num,
  instances: z.array(MetricsBlockSchema),
  target_distribution: z.record(z.string(), count),
  requests: z.array(RequestSchema).optional(),
  timeseries: TimeseriesSchema.optional(),
});

/**
 * The largest result file `blis report` (and `--calibration`) reads: 256 MiB, the bound on the
 * simulator results calibrate reads. A result with per-request records takes about 450 bytes a
 * request: a run of about 600,000 requests.
 */
export const RESULT_FILE_MAX_BYTES = 256 * 1024 * 1024;

/** `name=path` names a run; a bare path is named by its file name without `.json`. */
export function runArgument(arg: string): { name: string; path: string } {
  const m = /^([^=/\\]+)=(.+)$/.exec(arg);
  if (m !== null) return { name: m[1], path: m[2] };
  return { name: basename(arg).replace(/\.json$/i, ''), path: arg };
}

/**
 * Reads one JSON object file: a UsageIssue names the file and, for bad JSON, the line:column.
 * `flag` says where the path came from, `what` names the file's kind ("a blis run result") and
 * `hint` the file and how to make one.
 */
export function readJsonObject(path: string, flag: string, what: string, hint: string): Record<string, unknown> {
  requireReadable(flag, path, hint);
  // Read whole and parsed at several times its size: bounded as calibrate's results are.
  const read = readBoundedText(path, { maxBytes: RESULT_FILE_MAX_BYTES, what: hint });
  if (!read.ok) {
    const binary = read.issue.found === 'binary data';
    throw new UsageError([{ where: path, expected: binary ? `a JSON text file (${what})` : read.issue.expected, found: read.issue.found }]);
  }
  const text = read.text;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    // Where and why in our words: V8's message differs between Node versions and quotes the input.
    const p = jsonSyntaxProblem(text, 'the end of the file');
    if (p === undefined) throw new UsageError([{ where: path, expected: `JSON (${what})`, found: messageText((e as Error).message) }]);
    throw new UsageError([{ where: `${path}:${p.line}:${p.column}`, expected: `JSON (${what}): ${p.expected}`, found: p.found }]);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new UsageError([{ where: path, expected: `${what} (a JSON object)`, found: describeFound(value) }]);
  return value as Record<string, unknown>;
}

/** Checks `value` against `schema`; up to five issues, each naming the file and the field. */
export function checkSchema<T>(schema: z.ZodType<T>, value: unknown, path: string, what: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  // A wrong type names what the whole file should be: a field of a result, not of something else.
  const texts = parsed.error.issues.flatMap((i) => zodIssueTexts([i], value).map((t) => (i.code === 'invalid_type' ? { ...t, expected: `${t.expected} (${what})` } : t)));
  throw new UsageError(texts.slice(0, 5).map((t) => ({ where: `${path} ${formatParamPath(t.path, '') || '(top level)'}`, expected: t.expected, found: t.found })));
}

/**
 * Reads and validates one result file. Every problem is a UsageIssue naming the file and the
 * line:column (bad JSON) or the field; a result without per-request records is refused, since
 * the latency charts need them.
 */
export function readResultFile(path: string): SimulationResult {
  const value = readJsonObject(path, 'result', 'a blis run result', 'result JSON file (blis run --results-path)');
  const data = checkSchema(ResultFileSchema, value, path, 'a blis run result');
  if (data.requests === undefined || data.requests.length === 0)
    throw new UsageError([
      { where: `${path} requests`, expected: 'per-request records (write the result with `blis run --results-path <file>`; stdout has none)', found: data.requests === undefined ? 'nothing' : 'an empty array' },
    ]);
  return value as unknown as SimulationResult;
}
