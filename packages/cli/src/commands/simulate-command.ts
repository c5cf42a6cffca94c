import { workloadSpecNotes } from '@blis/workload/internal';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { type AutoscalingMetrics, type PreparedRun, type SimulationConfigInput, type SimulationRuntime, prepareSimulation, runPrepared } from '@blis/cluster';
import { buildConfig } from '../config/build-config.js';
import { customAutoscalerName, customRuntime, preparePolicies } from '../policy-modules/index.js';
import { type FlagDef, parseFlags } from '../flags/flags.js';
import { policyCheckRuntime } from '../config/policy-check-flags.js';
import { describeErrno } from '../inputs/input-files.js';
import { writeJsonFile, writeJsonStdout } from '../output/json-stream.js';
import { describePolicies, logsErrorsOnly, logsPolicies } from '../flags/log-level.js';
import { overloadNote } from '../output/overload-note.js';
import { ProgressBar } from '../output/progress-bar.js';
import { PhaseProgress } from '../output/phase-progress.js';
import { memoryLimit } from './machine-memory.js';
import { requireSpecFileSize } from '../inputs/spec-file-limit.js';
import { createTracing } from '../output/tracing.js';
import { UsageError } from '../errors/usage-error.js';
import { writeRunReport } from '../output/run-report.js';
import { writeSaturationReport } from '../output/saturation-report.js';
import { loadDetectorModules } from '../inputs/saturation-detector-modules.js';
import { detectorModulePaths } from '../config/saturation-setup.js';
import { blisMetricsOutput } from '../output/metrics-file.js';
import { exportRunWorkload, runRequests } from '../output/workload-export.js';
import { checkWritableFile } from '../output/writable-file.js';

/**
 * Shared body of `blis run` and `blis replay`: validate flags, build the config, run, print the
 * result JSON on stdout (and to --results-path), progress and notes on stderr.
 */
export async function runSimulationCommand(
  defs: readonly FlagDef[],
  rawOpts: Record<string, unknown>,
  workloadFrom: (flags: Record<string, unknown>) => SimulationConfigInput['workload'],
): Promise<void> {
  const flags = parseFlags(defs, rawOpts);
  refuseOldTraceOutput(flags);
  const workload = workloadFrom(flags);
  if (workload?.kind === 'spec' && workload.path !== undefined) requireSpecFileSize('--workload-spec', workload.path);
  const setup = await preparePolicies(flags);
  const input = buildConfig(flags, workload, setup);
  const resultsPath = flags.resultsPath as string | undefined;
  if (resultsPath !== undefined) checkWritable(resultsPath);
  const reportPath = flags.report as string | undefined;
  if (reportPath !== undefined) checkWritableFile('--report', reportPath);
  const metricsPath = flags.metricsPath as string | undefined;
  if (metricsPath !== undefined) checkWritableFile('--metrics-path', metricsPath);
  const traceOutput = flags.traceOutput as string | undefined;
  if (traceOutput !== undefined) for (const ext of ['.yaml', '.csv']) checkWritableFile('--trace-output', `${traceOutput}${ext}`);
  const custom = customRuntime(setup, {
    seed: (flags.seed as number | undefined) ?? 42,
    numInstances: input.numInstances ?? 1,
    blockSizeTokens: (flags.blockSizeInTokens as number | undefined) ?? 16,
  });
  const logLevel = flags.log as string | undefined;
  const quiet = flags.quiet === true || logsErrorsOnly(logLevel);
  const total = expectedRequests(input);
  const bar = new ProgressBar(total, !quiet);
  // The recorder must exist before the cluster is built: it is the cluster's observer.
  const tracing = createTracing(input, custom.decider?.name, customAutoscalerName(custom));
  const phases = new PhaseProgress(!quiet);
  const detectorModules = detectorModulePaths(flags);
  const saturationDetectors = detectorModules.length > 0 ? await loadDetectorModules(detectorModules) : undefined;
  const runtime: SimulationRuntime = {
    ...custom,
    ...(saturationDetectors !== undefined ? { saturationDetectors } : {}),
    ...policyCheckRuntime(flags),
    // No callback when the bar cannot draw: the event loop then never takes its progress branch,
    // which would otherwise first run 65,536 events in, after the loop is optimised without it.
    ...(bar.enabled ? { onProgress: (done: number, now: number) => bar.update(done, now) } : {}),
    onPhase: (p) => phases.phase(p),
    memoryLimit: memoryLimit(flags.ignoreMemoryLimit === true),
  };
  if (tracing !== undefined) runtime.observer = tracing.observer;
  const prepared = prepareSimulation(input, runtime);
  if (!quiet) for (const w of prepared.workloadWarnings ?? []) process.stderr.write(`blis: warning: ${w}\n`);
  // Said once the spec has loaded (prepareSimulation reports a bad one first).
  if (!quiet && workload?.kind === 'spec' && workload.path !== undefined) for (const n of workloadSpecNotes(workload.path)) process.stderr.write(`blis: note: ${n}\n`);
  if (!quiet && logsPolicies(logLevel))
    process.stderr.write(`blis: ${describePolicies(prepared.config, { customDecider: custom.decider?.name, customAutoscaler: customAutoscalerName(custom) })}\n`);
  const result = runPrepared(prepared);
  bar.finish();
  tracing?.finish(result, prepared.endUs);
  if (!quiet) {
    process.stderr.write(
      `blis: ${prepared.config.numInstances} instance(s), ${prepared.latencyKind} latency, ${prepared.totalKVBlocks} KV blocks (${prepared.kvBlocksSource}${prepared.kvBlocksDerivation === undefined ? '' : `: ${prepared.kvBlocksDerivation}`}); ${result.completed_requests}/${result.injected_requests} completed in ${result.vllm_estimated_duration_s.toFixed(3)} simulated s\n`,
    );
    const overload = overloadNote(result, prepared.config.numInstances);
    if (overload !== undefined) process.stderr.write(`blis: ${overload}\n`);
    if (prepared.kvTiers !== undefined) process.stderr.write(`blis: KV tiers: ${describeKVTiers(prepared.kvTiers)}\n`);
    const autoscaling = result.autoscaling;
    if (autoscaling !== undefined) process.stderr.write(`blis: autoscaling: ${describeAutoscaling(autoscaling)}\n`);
    if (prepared.config.saturationAnalysis !== undefined && result.saturation === undefined)
      process.stderr.write('blis: warning: --detectors: no request completed, so the saturation analysis has no verdict and no label\n');
    if (result.custom_metrics !== undefined) process.stderr.write(`blis: custom metrics: ${describeCustomMetrics(result.custom_metrics)}\n`);
    // A horizon before the first arrival is legal (the spec's own windows past it are refused
    // before the run), but a run of nothing is rarely what was meant.
    if (result.injected_requests === 0 && prepared.config.horizonUs !== undefined)
      process.stderr.write(`blis: warning: no request arrived before the horizon (${prepared.config.horizonUs} µs): the result is of an empty run\n`);
  }
  const { requests, unfinished_requests, ...summary } = result;
  // The file first: when it cannot be written the command fails with nothing on stdout. In
  // chunks, as stdout below: one string of every request's record passes V8's limits.
  if (resultsPath !== undefined) {
    try {
      writeJsonFile(resultsPath, result);
    } catch (e) {
      throw new UsageError([{ where: '--results-path', expected: 'a writable file', found: describeErrno(e) }]);
    }
  }
  // Both files need the requests the run received, generated again: once for the two.
  const received = metricsPath !== undefined || traceOutput !== undefined ? runRequests(prepared.config, result) : [];
  if (metricsPath !== undefined) {
    const byId = new Map(received.map((r) => [r.spec.id, r.spec]));
    writeOutputFile('--metrics-path', () => writeJsonFile(metricsPath, blisMetricsOutput(result, (id) => byId.get(id)), false));
  }
  if (traceOutput !== undefined) writeOutputFile('--trace-output', () => exportRunWorkload(prepared.config, received, traceOutput, prepared.config.workload.kind === 'trace' ? 'replayed' : 'generated', prepared.goodputTargets));
  if (reportPath !== undefined) await writeRunReport(reportPath, result, !quiet);
  const saturationReport = flags.saturationReport as string | undefined;
  if (saturationReport !== undefined) writeOutputFile('--saturation-report', () => writeSaturationReport(saturationReport, prepared, result));
  void requests;
  void unfinished_requests;
  // A time series sampled only for --report stays out of stdout, which --report leaves as it was.
  if (reportPath !== undefined && flags.timeseriesInterval === undefined) delete summary.timeseries;
  writeJsonStdout(summary);
}

/**
 * `--trace-output` is BLIS's workload export; until this release it named the decision trace
 * file, which needed `--trace-level`. That usage now stops with where the file moved, rather
 * than writing a workload the user did not ask for.
 */
function refuseOldTraceOutput(flags: Record<string, unknown>): void {
  const level = flags.traceLevel;
  if (flags.traceOutput === undefined || level === undefined || level === 'none') return;
  throw new UsageError([
    {
      where: '--trace-output',
      expected: `BLIS's workload export (a TraceV2 <prefix>.yaml + <prefix>.csv); the decision trace of --trace-level is written with --decision-trace <file> since this release`,
      found: `--trace-output ${String(flags.traceOutput)} beside --trace-level ${String(level)}`,
    },
  ]);
}

function writeOutputFile(flag: string, write: () => unknown): void {
  try {
    write();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === undefined) throw e;
    throw new UsageError([{ where: flag, expected: 'a writable file', found: describeErrno(e) }]);
  }
}

/** Fails before the run when --results-path cannot be created, rather than after it. */
function checkWritable(path: string): void {
  const dir = dirname(path);
  try {
    if (!statSync(dir).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    accessSync(dir, constants.W_OK);
    if (existsSync(path) && statSync(path).isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
  } catch (e) {
    throw new UsageError([{ where: '--results-path', expected: 'a writable file', found: describeErrno(e) }]);
  }
}

/** One line on the tiers behind each GPU cache, for the stderr log. */
function describeKVTiers(t: NonNullable<PreparedRun['kvTiers']>): string {
  if (t.kind === 'cpu') return `CPU tier of ${t.cpuBlocks} blocks per instance (legacy mirror), reloads ${t.transferBaseLatencyUs} µs + ceil(block / ${t.transferBandwidth}) µs per block`;
  const tiers = t.secondaryTiers.map((x) => x.deviceClass ?? `${x.device.readBandwidth}/${x.device.writeBandwidth} B/µs`);
  return `offload chain per instance: ${t.cpuBlocks} CPU blocks of ${t.perBlockBytes} bytes${tiers.length > 0 ? `, then ${tiers.join(', ')}` : ''}`;
}

/** One line on what the autoscaler did and what the replicas cost, for the stderr log. */
export function describeAutoscaling(
  a: Pick<
    AutoscalingMetrics,
    'evaluations' | 'policy' | 'scale_up_events' | 'scale_down_events' | 'replicas_added' | 'replicas_drained' | 'unplaced_replicas' | 'peak_replicas' | 'mean_replicas' | 'final_replicas' | 'gpu_seconds' | 'cost_usd'
  >,
): string {
  const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const parts = [
    a.policy === null ? 'no autoscaler' : `${a.policy}, ${plural(a.evaluations, 'evaluation')}`,
    `${plural(a.scale_up_events, 'scale-up')} (+${a.replicas_added}), ${plural(a.scale_down_events, 'scale-down')} (-${a.replicas_drained})`,
    `replicas peak ${a.peak_replicas}, mean ${a.mean_replicas.toFixed(2)}, final ${a.final_replicas}`,
    `${a.gpu_seconds.toFixed(1)} GPU-s, $${a.cost_usd.toFixed(2)}`,
  ];
  if (a.unplaced_replicas > 0) parts.push(`${plural(a.unplaced_replicas, 'replica')} found no node`);
  return parts.join('; ');
}

/** One line on what custom policies reported (`custom_metrics`), for the stderr log. */
export function describeCustomMetrics(m: Record<string, Record<string, number>>): string {
  return Object.entries(m)
    .map(([policy, metrics]) => `${policy}: ${Object.entries(metrics).map(([k, v]) => `${k} ${v}`).join(', ')}`)
    .join('; ');
}

function expectedRequests(input: SimulationConfigInput): number | undefined {
  const w = input.workload;
  if (w === undefined) return 100;
  if (w.kind === 'synthetic') return w.numRequests ?? 100;
  if (w.kind === 'trace') return w.maxRequests;
  return w.numRequests;
}
