import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { type SaturationAnalysisSettings, SaturationAnalysisSchema, analyseSaturation } from '@blis/cluster';
import type { ObservedRecord } from '@blis/observe';
import type { PostHocSaturationDetector, SaturationLevel } from '@blis/policies';
import { type CompletedRequestTimes, VerdictTraceWriter } from '@blis/trace';
import { loadDetectorModules } from '../inputs/saturation-detector-modules.js';
import { detectorModulePaths, saturationAnalysisFromFlags } from '../config/saturation-setup.js';
import { describeErrno } from '../inputs/input-files.js';
import { UsageError } from '../errors/usage-error.js';

/** The saturation analysis `blis observe` runs after recording: what --detectors selected, checked before any request is sent. */
export interface ObserveSaturation {
  settings: SaturationAnalysisSettings;
  custom: (() => PostHocSaturationDetector)[];
  reportPath: string | undefined;
  /** The --detectors text, for messages. */
  selection: string;
}

/**
 * The saturation flags of `blis observe` (the same four as `blis run`), or undefined without
 * --detectors. Reads --saturation-config, imports detector modules and checks the report path
 * now, so that a mistake costs no server time.
 */
export async function observeSaturationFromFlags(f: Record<string, unknown>): Promise<ObserveSaturation | undefined> {
  const input = saturationAnalysisFromFlags(f);
  if (input === undefined) return undefined;
  const modules = detectorModulePaths(f);
  return {
    settings: SaturationAnalysisSchema.parse(input),
    custom: modules.length > 0 ? await loadDetectorModules(modules) : [],
    reportPath: f.saturationReport as string | undefined,
    selection: f.detectors as string,
  };
}

/**
 * The real server's completed requests as the detectors read them, as BLIS derives them: `ok`
 * records only, arriving at their workload arrival time, E2E from send to last chunk (a
 * non-positive one is dropped), ids `request_<n>`.
 */
export function observedCompletions(records: readonly ObservedRecord[]): CompletedRequestTimes[] {
  const out: CompletedRequestTimes[] = [];
  for (const r of records) {
    if (r.status !== 'ok') continue;
    const e2eUs = r.lastChunkTimeUs - r.sendTimeUs;
    if (e2eUs <= 0) continue;
    out.push({ requestId: `request_${r.requestId}`, arrivalUs: r.arrivalTimeUs, e2eUs });
  }
  return out;
}

/**
 * Runs the selected detectors over what the server answered and returns their final labels
 * (empty when no request completed); with --saturation-report, writes the verdict trace there,
 * BLIS's `{"final":{...},"trace":[...]}`.
 */
export function runObserveSaturation(s: ObserveSaturation, records: readonly ObservedRecord[], warn: (m: string) => void): Record<string, SaturationLevel> {
  const requests = observedCompletions(records);
  if (requests.length === 0) warn(`--detectors ${s.selection}: no request completed, so the saturation analysis has no verdict and no label`);
  const final = analyseSaturation(requests, s.settings, undefined, s.custom);
  if (s.reportPath !== undefined) writeReport(s, s.reportPath, requests, final);
  return final;
}

// The labels open the file, so the verdicts are replayed again (deterministic) into the stream.
function writeReport(s: ObserveSaturation, path: string, requests: readonly CompletedRequestTimes[], final: Record<string, SaturationLevel>): void {
  let fd: number;
  try {
    fd = openSync(path, 'w');
  } catch (e) {
    throw new UsageError([{ where: '--saturation-report', expected: 'a writable file', found: describeErrno(e) }]);
  }
  try {
    let buffered = '';
    const flush = () => {
      const bytes = Buffer.from(buffered, 'utf8');
      let at = 0;
      while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
      buffered = '';
    };
    const writer = new VerdictTraceWriter((chunk) => {
      buffered += chunk;
      if (buffered.length >= 1 << 20) flush();
    });
    writer.begin(final);
    analyseSaturation(requests, s.settings, (t, d, v) => writer.record(t, d, v), s.custom);
    writer.end();
    flush();
  } catch (e) {
    closeSync(fd);
    rmSync(path, { force: true });
    throw e;
  }
  closeSync(fd);
}
