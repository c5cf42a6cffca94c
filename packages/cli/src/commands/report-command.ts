import { writeFileSync } from 'node:fs';
import { renderReportHtml, reportSections } from '@blis/report';
import { describeErrno } from '../inputs/input-files.js';
import { readCalibrationFile } from '../inputs/calibration-file.js';
import { readResultFile, runArgument } from '../inputs/result-file.js';
import { TaskProgress } from '../output/task-progress.js';
import { UsageError, type UsageIssue } from '../errors/usage-error.js';
import { checkWritableFile } from '../output/writable-file.js';

/**
 * `blis report`: result files in, one self-contained HTML report out. Every file is read and
 * validated before anything is rendered; stdout gets one JSON line naming the file and sections.
 */
export async function runReportCommand(args: readonly string[], opts: { output?: string; title?: string; calibration?: string[] }): Promise<void> {
  const output = opts.output as string;
  const calibrationArgs = opts.calibration ?? [];
  if (args.length === 0 && calibrationArgs.length === 0)
    throw new UsageError([{ where: 'blis report', expected: 'at least one result file or --calibration file', found: 'neither' }]);
  checkWritableFile('--output', output);
  const issues: UsageIssue[] = [];
  const runs = [];
  const names = new Map<string, string>();
  // Results of 100,000 requests take seconds to read and draw: a bar per stage, after a second.
  const started = Date.now();
  const reading = new TaskProgress('result files read', true, started);
  for (const [i, arg] of args.entries()) {
    reading.update(i, args.length);
    const { name, path } = runArgument(arg);
    const earlier = names.get(name);
    if (earlier !== undefined) {
      issues.push({ where: arg, expected: `a run name not already used (name=path picks one)`, found: `"${name}", also the name of ${earlier}` });
      continue;
    }
    names.set(name, arg);
    try {
      runs.push({ name, result: readResultFile(path) });
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      issues.push(...e.issues);
    }
  }
  const calibrations = [];
  for (const arg of calibrationArgs) {
    try {
      calibrations.push(readCalibrationFile(arg));
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      issues.push(...e.issues);
    }
  }
  if (args.length > 0) reading.update(args.length, args.length);
  reading.finish();
  if (issues.length > 0) throw new UsageError(issues);
  const drawing = new TaskProgress('charts drawn', true, started);
  const html = await renderReportHtml(runs, { calibrations, ...(opts.title !== undefined ? { title: opts.title } : {}), onProgress: (done, total) => drawing.update(done, total) });
  drawing.finish();
  try {
    writeFileSync(output, html);
  } catch (e) {
    throw new UsageError([{ where: '--output', expected: 'a writable file', found: describeErrno(e) }]);
  }
  process.stdout.write(`${JSON.stringify({ report: output, sections: reportSections(runs, calibrations).map((s) => s.id) })}\n`);
}
