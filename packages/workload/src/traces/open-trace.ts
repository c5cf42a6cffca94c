import { allocBytes, closeSync, openSync, readSync } from '#host-files';
import { TraceReadError } from '../errors.js';
import { openAzureTrace } from './azure.js';
import { openMooncakeTrace } from './mooncake.js';
import type { TraceOptions, TraceRequestSource } from './trace-source.js';
import { openTraceV2 } from './tracev2.js';

export type TraceFormat = 'tracev2' | 'mooncake' | 'azure';

/** Guesses a trace's format from its extension and first line. */
export function detectTraceFormat(path: string): TraceFormat {
  if (/\.ya?ml$/i.test(path)) return 'tracev2';
  let first = '';
  try {
    const fd = openSync(path, 'r');
    const buf = allocBytes(512);
    const n = readSync(fd, buf, 0, 512, 0);
    closeSync(fd);
    first = buf.toString('utf8', 0, n).split('\n')[0];
  } catch (e) {
    throw new TraceReadError({ file: path, expected: 'a readable trace file', found: (e as NodeJS.ErrnoException).code ?? String(e) });
  }
  if (first.trimStart().startsWith('{')) return 'mooncake';
  if (/^TIMESTAMP,/i.test(first)) return 'azure';
  if (first.startsWith('request_id,')) return 'tracev2';
  throw new TraceReadError({ file: path, line: 1, expected: 'a TraceV2 CSV/YAML, a Mooncake JSONL or an Azure CSV (or --trace-format)', found: JSON.stringify(first.slice(0, 60)) });
}

export interface OpenTraceOptions extends TraceOptions {
  format?: TraceFormat;
}

/** Opens any supported trace as a lazy request stream. */
export function openTrace(path: string, opts: OpenTraceOptions = {}): TraceRequestSource {
  switch (opts.format ?? detectTraceFormat(path)) {
    case 'tracev2':
      return openTraceV2(path, opts);
    case 'mooncake':
      return openMooncakeTrace(path, opts);
    case 'azure':
      return openAzureTrace(path, opts);
  }
}
