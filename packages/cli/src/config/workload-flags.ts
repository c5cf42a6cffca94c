import { describeFound } from '@blis/policies/internal';
import { UsageError } from '../errors/usage-error.js';
import { DEFAULT_TIMEOUT_SECONDS, timeoutUs } from '../flags/timeout-flag.js';
import { requireReadable } from '../inputs/input-files.js';
import type { presetAndLengths } from './defaults-apply.js';

// The workload a command's flags describe: a spec file or the flag-driven workload (`blis run`,
// `blis capacity`, `blis compare`), or the trace a replay reads. Loaded with the program, so
// nothing here may import YAML or catalogue code (the presets come in from the command).

/** `presets` is defaults-apply.ts's, loaded by the command: building the program loads no YAML or catalogue code. */
export function workloadFromRunFlags(f: Record<string, unknown>, presets: typeof presetAndLengths) {
  if (typeof f.workloadSpec === 'string') {
    const conflicting = ['rate', 'promptTokens', 'outputTokens', 'workload', 'prefixTokens', 'arrivalProcess'].filter((k) => f[k] !== undefined);
    if (conflicting.length > 0)
      throw new UsageError([{ where: '--workload-spec', expected: 'no flag-driven workload flags beside it', found: conflicting.map((k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(', ') }]);
    requireReadable('--workload-spec', f.workloadSpec, 'workload spec file');
    // BLIS: a flag overrides the file only when given explicitly; --seed has no default here.
    return { kind: 'spec' as const, path: f.workloadSpec, numRequests: f.numRequests as number | undefined, seed: f.seed as number | undefined, timeoutUs: timeoutUs(f.timeout) };
  }
  return {
    kind: 'synthetic' as const,
    rate: f.rate as number | undefined,
    numRequests: f.numRequests as number | undefined,
    ...presets(f, true),
    timeoutUs: timeoutUs(f.timeout ?? DEFAULT_TIMEOUT_SECONDS),
  };
}

/**
 * The trace a replay reads: `--trace`, or BLIS's `--trace-header` + `--trace-data` pair. The pair
 * must be a header and the data file it names, since the TraceV2 reader follows the header.
 */
export function tracePath(f: Record<string, unknown>): { path: string; dataPath?: string } {
  const header = f.traceHeader as string | undefined;
  const data = f.traceData as string | undefined;
  if (header !== undefined || data !== undefined) {
    if (typeof f.trace === 'string')
      throw new UsageError([{ where: '--trace', expected: 'either --trace or --trace-header with --trace-data', found: 'both' }]);
    if (header === undefined || data === undefined)
      throw new UsageError([{ where: header === undefined ? '--trace-header' : '--trace-data', expected: `a file beside ${header === undefined ? '--trace-data' : '--trace-header'}`, found: 'nothing' }]);
    requireReadable('--trace-header', header, 'TraceV2 header file');
    requireReadable('--trace-data', data, 'TraceV2 data file');
    if (f.traceFormat !== undefined && f.traceFormat !== 'tracev2')
      throw new UsageError([{ where: '--trace-format', expected: 'tracev2 with --trace-header and --trace-data', found: describeFound(f.traceFormat) }]);
    return { path: header, dataPath: data };
  }
  if (typeof f.trace !== 'string') throw new UsageError([{ where: '--trace', expected: 'a trace file path (or --trace-header with --trace-data)', found: 'nothing' }]);
  requireReadable('--trace', f.trace, 'trace file');
  return { path: f.trace };
}
