import { writeFileSync } from 'node:fs';
import { checkReadableFile, describeErrno } from '../inputs/input-files.js';
import { UsageError, type UsageIssue } from '../errors/usage-error.js';
import { asUsageError } from './calibrate-input-errors.js';

/** The flags this mode reads, checked and required by `runCalibrateCommand`. */
export interface AdapterReferenceOptions {
  adapterReference: string;
  simMetrics: string;
  simMetricsBlind: string | undefined;
  report: string;
  adapterMapeThreshold: number;
  failOnTolerance: boolean;
}

/**
 * `blis calibrate --adapter-reference`: the simulator's adapter-aware aggregate (--sim-metrics),
 * and optionally its adapter-blind one (--sim-metrics-blind), against a LoRA digital twin's
 * reference. Writes the report JSON, prints the comparison; a metric over the bound is reported,
 * not an error (exit 0), unless --fail-on-tolerance asks for exit code 1.
 */
export async function runAdapterReference(o: AdapterReferenceOptions): Promise<void> {
  const { compareAdapterReference, formatAdapterReference, readDtReference, readSimAggregate } = await import('@blis/observe');
  const issues: UsageIssue[] = [];
  for (const [flag, path, what] of [
    ['--adapter-reference', o.adapterReference, 'DT reference JSON file'],
    ['--sim-metrics', o.simMetrics, 'metrics JSON file'],
    ['--sim-metrics-blind', o.simMetricsBlind, 'metrics JSON file'],
  ] as const) {
    if (path === undefined) continue;
    const issue = checkReadableFile(flag, path, what);
    if (issue !== undefined) issues.push(issue);
  }
  if (issues.length > 0) throw new UsageError(issues);
  const reportPath = o.report;

  let report: ReturnType<typeof compareAdapterReference>;
  try {
    const ref = readDtReference(o.adapterReference);
    const aware = readSimAggregate(o.simMetrics);
    const blind = o.simMetricsBlind !== undefined ? readSimAggregate(o.simMetricsBlind) : undefined;
    report = compareAdapterReference(ref, aware, blind, o.adapterMapeThreshold);
  } catch (e) {
    throw asUsageError(e);
  }
  try {
    writeFileSync(reportPath, `${JSON.stringify(report, null, 2)}\n`);
  } catch (e) {
    throw new UsageError([{ where: `--report ${reportPath}`, expected: 'a writable file path', found: describeErrno(e) }]);
  }
  const threshold = `${(report.mape_threshold * 100).toFixed(0)}%`;
  if (o.simMetricsBlind !== undefined)
    for (const m of report.metrics)
      if (m.delta_mape === undefined)
        process.stderr.write(`blis: warning: delta-normalized ${m.metric} error skipped: its adapter_blind value in the DT reference or in --sim-metrics-blind is zero (no aware ÷ blind ratio)\n`);
  if (!report.all_within_threshold)
    process.stderr.write(`blis: warning: ${report.metrics.filter((m) => !m.within_threshold).map((m) => m.metric).join(' and ')} outside the ${threshold} MAPE bound for ${report.model === '' ? 'this configuration' : report.model}: the comparison ran; the bound was not met\n`);
  process.stderr.write(`blis: adapter-reference report written to ${reportPath}\n`);
  process.stdout.write(formatAdapterReference(report));
  if (o.failOnTolerance && !report.all_within_threshold) {
    const err = new Error(`--fail-on-tolerance: ${report.metrics.filter((m) => !m.within_threshold).map((m) => m.metric).join(' and ')} MAPE above --adapter-mape-threshold ${o.adapterMapeThreshold}`);
    err.name = 'CalibrationToleranceError';
    throw err;
  }
}
