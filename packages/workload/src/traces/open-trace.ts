import { allocBytes, closeSync, openSync, readSync } from '#host-files';
import { TraceReadError } from '../errors.js';
import { looksBinary, quoteExcerpt } from '../text-excerpt.js';
import { openAzureTrace } from './azure.js';
import { openMooncakeTrace } from './mooncake.js';
import type { TraceOptions, TraceRequestSource } from './trace-source.js';
import { openTraceV2 } from './tracev2.js';

export type TraceFormat = 'tracev2' | 'mooncake' | 'azure';

const FORMAT_NAME: Record<TraceFormat, string> = { tracev2: 'a TraceV2 CSV', mooncake: 'a Mooncake JSONL trace', azure: 'an Azure trace CSV' };

/** The first line of a trace file (from its first 512 bytes); binary data is refused. */
function firstLine(path: string): string {
  let head: string;
  try {
    const fd = openSync(path, 'r');
    const buf = allocBytes(512);
    const n = readSync(fd, buf, 0, 512, 0);
    closeSync(fd);
    head = buf.toString('utf8', 0, n);
  } catch (e) {
    throw new TraceReadError({ file: path, expected: 'a readable trace file', found: (e as NodeJS.ErrnoException).code ?? String(e) });
  }
  if (looksBinary(head)) throw new TraceReadError({ file: path, expected: 'a trace text file (TraceV2 CSV/YAML, Mooncake JSONL or Azure CSV)', found: 'binary data' });
  return head.split('\n')[0];
}

/** The format a first line shows, if any. */
function formatOfLine(first: string): TraceFormat | undefined {
  if (first.trimStart().startsWith('{')) return 'mooncake';
  if (/^TIMESTAMP,/i.test(first)) return 'azure';
  if (first.startsWith('request_id,')) return 'tracev2';
  return undefined;
}

/** Guesses a trace's format from its extension and first line. */
export function detectTraceFormat(path: string): TraceFormat {
  if (/\.ya?ml$/i.test(path)) return 'tracev2';
  const first = firstLine(path);
  const format = formatOfLine(first);
  if (format !== undefined) return format;
  throw new TraceReadError({ file: path, line: 1, expected: 'a TraceV2 CSV/YAML, a Mooncake JSONL or an Azure CSV (or --trace-format)', found: first.trim() === '' ? 'an empty first line' : quoteExcerpt(first) });
}

export interface OpenTraceOptions extends TraceOptions {
  format?: TraceFormat;
}

/** Opens any supported trace as a lazy request stream. */
export function openTrace(path: string, opts: OpenTraceOptions = {}): TraceRequestSource {
  const format = opts.format ?? detectTraceFormat(path);
  if (opts.format !== undefined && opts.dataPath === undefined && !/\.ya?ml$/i.test(path)) {
    // A format given for a file that plainly is another: say both, rather than fail on a column.
    const first = firstLine(path);
    const seen = formatOfLine(first);
    if (seen !== undefined && seen !== format)
      throw new TraceReadError({ file: path, line: 1, expected: `${FORMAT_NAME[format]} (--trace-format ${format})`, found: `${FORMAT_NAME[seen]}: ${quoteExcerpt(first)}` });
  }
  switch (format) {
    case 'tracev2':
      return openTraceV2(path, opts);
    case 'mooncake':
      return openMooncakeTrace(path, opts);
    case 'azure':
      return openAzureTrace(path, opts);
  }
}
