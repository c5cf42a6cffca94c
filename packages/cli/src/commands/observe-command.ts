import { mergeGoodputTargets } from '@blis/workload/internal';
import { describeFound } from '@blis/policies/internal';
import type { ObserveResult } from '@blis/observe';
import { type FlagDef, camel, parseFlags } from '../flags/flags.js';
import { observeWorkload } from './observe-workload.js';
import type { SloDimTargets } from '@blis/workload';
import { defaultsFileOf } from '../config/defaults-apply.js';
import { observeSaturationFromFlags, runObserveSaturation } from './observe-saturation.js';
import { TaskProgress } from '../output/task-progress.js';
import { UsageError, type UsageIssue } from '../errors/usage-error.js';
import { requireWritable } from '../output/writable-output.js';

/** Ctrl-C: the partial trace is written, and the exit code says the run was cut short. */
class ObserveInterruptedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ObserveInterruptedError';
  }
}

/** Per-class targets of one --slo-* flag, or an issue naming it. */
function classDurations(parse: (t: string) => Map<string, number>, flag: string, text: unknown, issues: UsageIssue[]): Map<string, number> | undefined {
  if (text === undefined) return undefined;
  try {
    return parse(text as string);
  } catch (e) {
    issues.push({ where: `--${flag}`, expected: 'class=duration pairs, comma-separated (e.g. "critical=100ms,standard=500ms")', found: (e as Error).message });
    return undefined;
  }
}

/**
 * `blis observe`: validate everything, make sure the server answers, send the workload, write
 * the TraceV2 pair (and ITL CSV), print a JSON summary. SIGINT stops sending, aborts the requests
 * in flight (recorded as errors), writes what was recorded and exits 130.
 */
export async function runObserveCommand(defs: readonly FlagDef[], rawOpts: Record<string, unknown>): Promise<void> {
  // Commander reads `--no-streaming` as the negation of a `--streaming` option.
  const f = parseFlags(defs, { ...rawOpts, noStreaming: rawOpts.streaming === false ? true : undefined });
  const { observe, probeServer, writeRealTrace } = await import('@blis/observe');
  const { goodputTargets, parseClassDurations } = await import('@blis/observe/internal');
  const issues: UsageIssue[] = [];
  for (const name of ['server-url', 'model', 'trace-header', 'trace-data'])
    if (f[camel(name)] === undefined) issues.push({ where: `--${name}`, expected: 'a value (`blis observe` requires it)', found: 'nothing' });
  const serverUrl = f.serverUrl as string | undefined;
  if (serverUrl !== undefined && !/^https?:\/\/[^/\s]+/.test(serverUrl)) issues.push({ where: '--server-url', expected: 'an http:// or https:// URL (e.g. http://localhost:8000)', found: describeFound(serverUrl) });
  if (f.recordItl === true && f.noStreaming === true) issues.push({ where: '--record-itl', expected: 'streaming (ITL needs chunks), so not --no-streaming', found: '--no-streaming' });
  if ((f.timeout as number | undefined) !== undefined && (f.timeout as number) > 86400) issues.push({ where: '--timeout', expected: 'seconds in [1, 86400]', found: String(f.timeout) });
  const ttft = classDurations(parseClassDurations, 'slo-ttft', f.sloTtft, issues);
  const itl = classDurations(parseClassDurations, 'slo-itl', f.sloItl, issues);
  const e2e = classDurations(parseClassDurations, 'slo-e2e', f.sloE2e, issues);
  if (issues.length > 0) throw new UsageError(issues);
  // BLIS reads it for --workload presets only; a bad file is refused even without one.
  defaultsFileOf(f);
  const workload = observeWorkload(f);
  const headerPath = f.traceHeader as string;
  const dataPath = f.traceData as string;
  const itlPath = f.recordItl === true ? ((f.itlOutput as string | undefined) ?? `${dataPath.replace(/\.csv$/, '')}.itl.csv`) : undefined;
  requireWritable('--trace-header', headerPath);
  requireWritable('--trace-data', dataPath);
  if (itlPath !== undefined) requireWritable('--itl-output', itlPath);
  const saturation = await observeSaturationFromFlags(f);

  const quiet = f.quiet === true;
  const note = (m: string) => {
    if (!quiet) process.stderr.write(`blis: ${m}\n`);
  };
  if (f.itlOutput !== undefined && f.recordItl !== true) note('warning: --itl-output without --record-itl: no ITL file is written');
  if (f.scrapeKvMetrics !== true && (f.kvMetricsUrl !== undefined || f.vllmCommit !== undefined)) note('warning: --kv-metrics-url and --vllm-commit apply only with --scrape-kv-metrics');
  if (itl !== undefined && f.recordItl !== true) note('warning: --slo-itl without --record-itl: the header keeps the ITL targets, but this trace has no chunk times to grade them');

  const unreachable = await probeServer(serverUrl!);
  if (unreachable !== undefined) throw new UsageError([{ where: '--server-url', expected: 'a server that answers HTTP', found: `${serverUrl} unreachable (${unreachable})` }]);

  const abort = new AbortController();
  const onSignal = () => {
    note('interrupted: stopping; the requests in flight are recorded as errors');
    abort.abort();
  };
  process.once('SIGINT', onSignal);
  const bar = new TaskProgress('requests', !quiet && workload.expected !== undefined);
  let result: ObserveResult;
  try {
    result = await observe({
      serverUrl: serverUrl!,
      model: f.model as string,
      source: workload.source,
      seed: workload.seed,
      apiFormat: (f.apiFormat as 'completions' | 'chat' | undefined) ?? 'completions',
      apiKey: (f.apiKey as string | undefined) ?? '',
      maxConcurrency: (f.maxConcurrency as number | undefined) ?? workload.users ?? 256,
      warmupRequests: (f.warmupRequests as number | undefined) ?? 0,
      noStreaming: f.noStreaming === true,
      forceStreaming: f.recordItl === true,
      unconstrainedOutput: f.unconstrainedOutput === true,
      timeoutMs: ((f.timeout as number | undefined) ?? 300) * 1000,
      prewarmMs: ((f.prewarmDuration as number | undefined) ?? 0) / 1000,
      kvMetrics: f.scrapeKvMetrics === true ? { url: f.kvMetricsUrl as string | undefined, vllmCommit: (f.vllmCommit as string | undefined) ?? '' } : undefined,
      signal: abort.signal,
      onProgress: (n) => bar.update(n, workload.expected ?? n),
      onWarning: (w) => note(`warning: ${w}`),
    });
  } finally {
    process.off('SIGINT', onSignal);
    bar.finish();
  }
  writeRealTrace(
    headerPath,
    dataPath,
    {
      createdAt: `${new Date().toISOString().slice(0, 19)}Z`,
      warmUpRequests: (f.warmupRequests as number | undefined) ?? 0,
      workloadSeed: workload.seed,
      workloadSpec: workload.label,
      serverType: (f.serverType as string | undefined) ?? 'vllm',
      model: f.model as string,
      measuredRttMs: (f.rttMs as number | undefined) ?? 0,
      goodputSloTargets: headerTargets(goodputTargets(ttft, itl, e2e), workload.goodputSloTargets),
      observedKvMetrics: result.observedKvMetrics,
    },
    result.records,
    itlPath,
  );
  const labels = saturation !== undefined ? runObserveSaturation(saturation, result.records, (m) => process.stderr.write(`blis: warning: ${m}\n`)) : {};
  const count = (s: string) => result.records.filter((r) => r.status === s).length;
  const summary = {
    requests_sent: result.sent,
    requests_recorded: result.records.length,
    ok: count('ok'),
    error: count('error'),
    timeout: count('timeout'),
    tokens_per_word: result.tokensPerWord,
    ...(result.observedKvMetrics !== undefined ? { observed_kv_hit_rate: result.observedKvMetrics.hit_rate } : {}),
    interrupted: result.aborted,
    // BLIS's `saturation`: each detector's final label, when --detectors gave one.
    ...(Object.keys(labels).length > 0 ? { saturation: labels } : {}),
    files: {
      trace_header: headerPath,
      trace_data: dataPath,
      ...(itlPath !== undefined ? { itl: itlPath } : {}),
      ...(saturation?.reportPath !== undefined ? { saturation_report: saturation.reportPath } : {}),
    },
  };
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  if (result.aborted) throw new ObserveInterruptedError(`interrupted: ${result.records.length} records written to ${dataPath}`);
}

/**
 * The header's goodput targets: the flags' over the spec's, per class and dimension (BLIS's
 * observe merges the two, flags first); a dimension left out when not gated.
 */
function headerTargets(
  flags: Record<string, { ttft_ms?: number; itl_ms?: number; e2e_ms?: number }> | undefined,
  spec: Record<string, SloDimTargets> | undefined,
): Record<string, { ttft_ms?: number; itl_ms?: number; e2e_ms?: number }> | undefined {
  if (spec === undefined) return flags;
  const cli = Object.fromEntries(Object.entries(flags ?? {}).map(([c, t]) => [c, { ...(t.ttft_ms !== undefined ? { ttftMs: t.ttft_ms } : {}), ...(t.itl_ms !== undefined ? { itlMs: t.itl_ms } : {}), ...(t.e2e_ms !== undefined ? { e2eMs: t.e2e_ms } : {}) }]));
  const merged = mergeGoodputTargets(cli, undefined, spec);
  if (merged === undefined) return undefined;
  return Object.fromEntries(Object.entries(merged).map(([c, t]) => [c, { ...(t.ttftMs > 0 ? { ttft_ms: t.ttftMs } : {}), ...(t.itlMs > 0 ? { itl_ms: t.itlMs } : {}), ...(t.e2eMs > 0 ? { e2e_ms: t.e2eMs } : {}) }]));
}
