import { allocBytes, closeSync, fileSize, openSync, readSync } from '#host-files';
import type { TraceFormat } from './open-trace.js';
import { traceV2Pair } from './tracev2.js';

/** Bytes read from the start of a trace to learn its line length. */
const SAMPLE_BYTES = 64 * 1024;

/** A trace's record count as {@link estimateTraceRecords} gives it, and how it was found. */
export interface TraceRecordEstimate {
  records: number;
  /** Whether the whole file was counted, rather than its size divided by its first lines' length. */
  exact: boolean;
  /** The file the records are in (a TraceV2 pair's CSV). */
  file: string;
  bytes: number;
}

/**
 * How many records a trace holds, known before it is read: a file within 64 KiB is counted, a
 * larger one is its size over the mean length of the lines in its first 64 KiB. One read of
 * 64 KiB whatever the trace's size, for the memory estimate of a replay without a request cap.
 * Undefined when the file cannot be read (opening the trace reports that).
 */
export function estimateTraceRecords(path: string, opts: { format: TraceFormat; dataPath?: string }): TraceRecordEstimate | undefined {
  const file = opts.dataPath ?? (opts.format === 'tracev2' ? traceV2Pair(path).csv : path);
  // CSV traces open with a row of column names; Mooncake JSONL has none.
  const headerRows = opts.format === 'mooncake' ? 0 : 1;
  let bytes: number;
  let head: Uint8Array;
  try {
    bytes = fileSize(file);
    const fd = openSync(file, 'r');
    const buf = allocBytes(Math.min(SAMPLE_BYTES, bytes));
    const n = readSync(fd, buf, 0, buf.length, 0);
    closeSync(fd);
    head = buf.subarray(0, n);
  } catch {
    return undefined;
  }
  let lines = 0;
  let lastEnd = 0;
  // The built-in search, not a loop over 64 KiB of bytes in JS that runs once, unoptimised.
  for (let i = head.indexOf(0x0a); i >= 0; i = head.indexOf(0x0a, i + 1)) {
    lines++;
    lastEnd = i + 1;
  }
  if (head.length === bytes) {
    const total = lines + (lastEnd < head.length ? 1 : 0);
    return { records: Math.max(0, total - headerRows), exact: true, file, bytes };
  }
  // No whole line in the sample: one record per 64 KiB is as long as lines may be read.
  const meanLine = lines === 0 ? SAMPLE_BYTES : lastEnd / lines;
  return { records: Math.max(0, Math.ceil(bytes / meanLine) - headerRows), exact: false, file, bytes };
}
