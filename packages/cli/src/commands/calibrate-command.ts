import { describeFound, describeZodExpected } from '@blis/policies/internal';
import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { CalibrationView } from '@blis/report';
import * as z from 'zod';
import { checkReadableFile, describeErrno } from '../inputs/input-files.js';
import { UsageError, type UsageIssue } from '../errors/usage-error.js';
import { asUsageError } from './calibrate-input-errors.js';


const num = (what: string, check: (v: number) => boolean) =>
  z
    .string()
    .trim()
    .transform((s, ctx) => {
      const v = s === '' ? Number.NaN : Number(s);
      if (!Number.isFinite(v) || !check(v)) {
        ctx.addIssue({ code: 'custom', message: `expected ${what}` });
        return z.NEVER;
      }
      return v;
    });

const OptionsSchema = z.object({
  // Required by one mode or the other: checked once the mode is known.
  traceHeader: z.string().min(1).optional(),
  traceData: z.string().min(1).optional(),
  simResults: z.string().min(1).optional(),
  report: z.string().min(1).optional(),
  html: z.string().min(1).optional(),
  warmupRequests: num('-1 (the header\'s) or a non-negative integer', (v) => Number.isInteger(v) && v >= -1).default(-1),
  networkRttUs: num('-1 (the header\'s) or a non-negative integer of µs', (v) => Number.isInteger(v) && v >= -1).default(-1),
  networkBandwidthMbps: num('a non-negative number of Mbps', (v) => v >= 0).default(0),
  itlData: z.string().min(1).optional(),
  simMetrics: z.string().min(1).optional(),
  hitRateTolerancePp: num('a non-negative number of percentage points', (v) => v >= 0).default(5),
  ttftMapeThreshold: num('a non-negative fraction (0.15 is 15%)', (v) => v >= 0).default(0.15),
  sloTtft: z.string().optional(),
  sloItl: z.string().optional(),
  sloE2e: z.string().optional(),
  failOnTolerance: z.boolean().optional(),
  adapterReference: z.string().min(1).optional(),
  simMetricsBlind: z.string().min(1).optional(),
  adapterMapeThreshold: num('a number > 0 (a fraction: 0.2 is 20%)', (v) => v > 0).default(0.2),
});

/** A flag the mode check above has required. */
function given(v: string | undefined): string {
  if (v === undefined) throw new Error('calibrate: a required flag passed the mode check unset');
  return v;
}


/** The flags each mode reads; one of the other mode's, given, is refused rather than ignored. */
const TRACE_MODE_ONLY = ['traceHeader', 'traceData', 'simResults', 'html', 'warmupRequests', 'networkRttUs', 'networkBandwidthMbps', 'itlData', 'hitRateTolerancePp', 'ttftMapeThreshold', 'sloTtft', 'sloItl', 'sloE2e'] as const;
const ADAPTER_MODE_ONLY = ['simMetricsBlind', 'adapterMapeThreshold'] as const;

export const kebab = (k: string) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;


/**
 * `blis calibrate`: grade a replay against the recorded run it replayed. Writes the report JSON
 * to --report and prints a table on stdout; every input is checked before anything is written.
 */
export async function runCalibrateCommand(raw: Record<string, unknown>): Promise<void> {
  const parsed = OptionsSchema.safeParse(raw);
  if (!parsed.success)
    throw new UsageError(
      parsed.error.issues.map((i) => {
        const v = raw[String(i.path[0])];
        return { where: kebab(String(i.path[0])), expected: describeZodExpected(i, v), found: describeFound(v) };
      }),
    );
  const o = parsed.data;
  const adapterMode = o.adapterReference !== undefined;
  const misplaced = (adapterMode ? TRACE_MODE_ONLY : ADAPTER_MODE_ONLY).filter((k) => raw[k] !== undefined);
  const missing = (adapterMode ? (['simMetrics', 'report'] as const) : (['traceHeader', 'traceData', 'simResults', 'report'] as const)).filter((k) => o[k] === undefined);
  const modeIssues: UsageIssue[] = [
    ...misplaced.map((k) => ({
      where: kebab(k),
      expected: adapterMode ? 'no trace-grading flag with --adapter-reference (it compares --sim-metrics with the DT reference only)' : 'this flag only with --adapter-reference',
      found: describeFound(raw[k]),
    })),
    ...missing.map((k) => ({ where: kebab(k), expected: `a value (\`blis calibrate${adapterMode ? ' --adapter-reference' : ''}\` requires it)`, found: 'nothing' })),
  ];
  if (modeIssues.length > 0) throw new UsageError(modeIssues);
  if (adapterMode) {
    const { runAdapterReference } = await import('./calibrate-adapter-reference.js');
    return runAdapterReference({ adapterReference: given(o.adapterReference), simMetrics: given(o.simMetrics), simMetricsBlind: o.simMetricsBlind, report: given(o.report), adapterMapeThreshold: o.adapterMapeThreshold, failOnTolerance: o.failOnTolerance === true });
  }
  const { calibrate, formatReportTable, readCalibrationInputs } = await import('@blis/observe');
  const { parseSloFlag, stringifyReport } = await import('@blis/observe/internal');

  const slo: Record<'ttft' | 'itl' | 'e2e', ReadonlyMap<string, number> | undefined> = { ttft: undefined, itl: undefined, e2e: undefined };
  const issues: UsageIssue[] = [];
  for (const [dim, text] of [['ttft', o.sloTtft], ['itl', o.sloItl], ['e2e', o.sloE2e]] as const) {
    if (text === undefined) continue;
    const r = parseSloFlag(text);
    if (typeof r === 'string') issues.push({ where: `--slo-${dim}`, expected: 'class=duration pairs, comma-separated (e.g. critical=100ms,standard=2s)', found: r });
    else slo[dim] = r;
  }
  const files = [
    ['--trace-header', o.traceHeader, 'TraceV2 header file'],
    ['--trace-data', o.traceData, 'TraceV2 data file'],
    ['--sim-results', o.simResults, 'results JSON file'],
    ['--itl-data', o.itlData, 'ITL CSV file'],
    ['--sim-metrics', o.simMetrics, 'metrics JSON file'],
  ] as const;
  for (const [flag, path, what] of files) {
    if (path === undefined) continue;
    const issue = checkReadableFile(flag, path, what);
    if (issue !== undefined) issues.push(issue);
  }
  if (issues.length > 0) throw new UsageError(issues);

  let outcome: ReturnType<typeof calibrate>;
  try {
    const inputs = readCalibrationInputs({ traceHeader: given(o.traceHeader), traceData: given(o.traceData), simResults: given(o.simResults), itlData: o.itlData, simMetrics: o.simMetrics });
    outcome = calibrate(inputs, {
      warmUpRequests: o.warmupRequests,
      networkRttUs: o.networkRttUs,
      bandwidthMbps: o.networkBandwidthMbps,
      hitRateTolerancePp: o.hitRateTolerancePp,
      ttftMapeThreshold: o.ttftMapeThreshold,
      slo,
    });
  } catch (e) {
    throw asUsageError(e);
  }
  const reportPath = given(o.report);
  try {
    writeFileSync(reportPath, stringifyReport(outcome.report));
  } catch (e) {
    throw new UsageError([{ where: `--report ${reportPath}`, expected: 'a writable file path', found: describeErrno(e) }]);
  }
  if (o.html !== undefined) await writeCalibrationHtml(o.html, reportPath, outcome.report);
  for (const w of outcome.warnings) process.stderr.write(`blis: warning: ${w}\n`);
  process.stderr.write(`blis: calibration report written to ${reportPath}\n`);
  process.stdout.write(formatReportTable(outcome));

  if (o.failOnTolerance === true) {
    const failed = [outcome.report.ttft_tolerance?.within === false ? 'TTFT MAPE' : '', outcome.report.hit_rate?.within === false ? 'KV hit rate' : ''].filter((s) => s !== '');
    if (failed.length > 0) {
      const err = new Error(`--fail-on-tolerance: ${failed.join(' and ')} outside tolerance`);
      err.name = 'CalibrationToleranceError';
      throw err;
    }
  }
}

/** `--html`: the calibration section of `@blis/report` as its own page, named after the JSON report. */
async function writeCalibrationHtml(path: string, reportPath: string, report: CalibrationView): Promise<void> {
  const { renderReportHtml } = await import('@blis/report');
  const name = basename(reportPath).replace(/\.json$/i, '') || 'calibration';
  const html = await renderReportHtml([], { title: 'BLIS calibration report', calibrations: [{ name, report }] });
  try {
    writeFileSync(path, html);
  } catch (e) {
    throw new UsageError([{ where: `--html ${path}`, expected: 'a writable file path', found: describeErrno(e) }]);
  }
}
