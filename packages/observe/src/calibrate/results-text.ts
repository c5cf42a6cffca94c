import { readBoundedText } from '@blis/workload/internal';
import { CalibrationInputError } from './errors.js';

/**
 * Largest simulator output calibrate reads (256 MiB): results are parsed whole, at several times
 * their size in memory, and a request's record takes about 450 bytes of `--results-path`
 * output, so this holds a replay of about 600,000 requests.
 */
export const SIM_RESULTS_MAX_BYTES = 256 * 1024 * 1024;

/** The text of a simulator output file, size-checked before it is read and refused when binary. */
export function readResultsText(path: string, what: string): string {
  const read = readBoundedText(path, { maxBytes: SIM_RESULTS_MAX_BYTES, what });
  if (!read.ok) throw new CalibrationInputError([read.issue]);
  return read.text;
}
