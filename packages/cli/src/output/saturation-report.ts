import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { type PreparedRun, type SimulationResult, runSaturationAnalysis } from '@blis/cluster';
import { VerdictTraceWriter } from '@blis/trace';

/**
 * Writes --saturation-report: BLIS's final labels, then every verdict of the replay, made again
 * here so that the trace streams to the file instead of being held (the replay is deterministic:
 * the same verdicts the labels were voted from).
 */
export function writeSaturationReport(path: string, prepared: PreparedRun, result: SimulationResult): void {
  const settings = prepared.config.saturationAnalysis;
  if (settings === undefined) return;
  const fd = openSync(path, 'w');
  try {
    let buffered = '';
    const put = (s: string) => {
      buffered += s;
      if (buffered.length >= 1 << 20) {
        writeAll(fd, buffered);
        buffered = '';
      }
    };
    const writer = new VerdictTraceWriter(put);
    writer.begin(result.saturation ?? {});
    runSaturationAnalysis(prepared.cluster, settings, (t, d, v) => writer.record(t, d, v), prepared.saturationDetectors);
    writer.end();
    if (buffered !== '') writeAll(fd, buffered);
  } catch (e) {
    // A detector module that fails mid-replay must not leave half a report behind.
    closeSync(fd);
    rmSync(path, { force: true });
    throw e;
  }
  closeSync(fd);
}

function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let at = 0;
  while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
}
