import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { SimulationResult } from '@blis/cluster';
import { describeErrno } from '../inputs/input-files.js';
import { TaskProgress } from './task-progress.js';
import { UsageError } from '../errors/usage-error.js';

/**
 * `blis run --report <file.html>`: the run's own report, named after the file. @blis/report
 * (and Vega) load only when asked for.
 */
export async function writeRunReport(path: string, result: SimulationResult, progress: boolean): Promise<void> {
  const { renderReportHtml } = await import('@blis/report');
  const name = basename(path).replace(/\.html?$/i, '') || 'run';
  const drawing = new TaskProgress('report charts drawn', progress);
  const html = await renderReportHtml([{ name, result }], { onProgress: (done, total) => drawing.update(done, total) });
  drawing.finish();
  try {
    writeFileSync(path, html);
  } catch (e) {
    throw new UsageError([{ where: '--report', expected: 'a writable file', found: describeErrno(e) }]);
  }
}
