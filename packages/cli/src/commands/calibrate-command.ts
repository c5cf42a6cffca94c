import { describeFound, describeZodExpected } from '@blis/policies';
import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { CalibrationView } from '@blis/report';
import * as z from 'zod';
import { checkReadableFile, describeErrno } from '../input-files.js';
import { UsageError, type UsageIssue } from '../usage-error.js';


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
  traceHeader: z.string().min(1),
  traceData: z.string().min(1),
  simResults: z.string().min(1),
  report: z.string().min(1),
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
});

const kebab = (k: string) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** Input-file errors of @blis/observe and @blis/workload, as the CLI reports them. */
function located(e: unknown): e is Error & { issues: { file: string; line?: number; field?: string; expected: string; found: string }[] } {
  const name = (e as Error | null)?.name;
  return (name === 'CalibrationInputError' || name === 'TraceReadError') && Array.isArray((e as { issues?: unknown }).issues);
}

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
        return v === undefined
          ? { where: kebab(String(i.path[0])), expected: 'a value (`blis calibrate` requires it)', found: 'nothing' }
          : { where: kebab(String(i.path[0])), expected: describeZodExpected(i, v), found: describeFound(v) };
      }),
    );
  const o = parsed.data;
  const { calibrate, formatReportTable, parseSloFlag, readCalibrationInputs, stringifyReport } = await import('@blis/observe');

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
    const inputs = readCalibrationInputs({ traceHeader: o.traceHeader, traceData: o.traceData, simResults: o.simResults, itlData: o.itlData, simMetrics: o.simMetrics });
    outcome = calibrate(inputs, {
      warmUpRequests: o.warmupRequests,
      networkRttUs: o.networkRttUs,
      bandwidthMbps: o.networkBandwidthMbps,
      hitRateTolerancePp: o.hitRateTolerancePp,
      ttftMapeThreshold: o.ttftMapeThreshold,
      slo,
    });
  } catch (e) {
    if (located(e)) throw new UsageError(e.issues.map((i) => ({ where: `${i.file}${i.line !== undefined ? `:${i.line}` : ''}${i.field !== undefined ? ` ${i.field}` : ''}`, expected: i.expected, found: i.found })));
    throw e;
  }
  try {
    writeFileSync(o.report, stringifyReport(outcome.report));
  } catch (e) {
    throw new UsageError([{ where: `--report ${o.report}`, expected: 'a writable file path', found: describeErrno(e) }]);
  }
  if (o.html !== undefined) await writeCalibrationHtml(o.html, o.report, outcome.report);
  for (const w of outcome.warnings) process.stderr.write(`blis: warning: ${w}\n`);
  process.stderr.write(`blis: calibration report written to ${o.report}\n`);
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
