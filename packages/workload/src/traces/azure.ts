import type { RequestSpec } from '@blis/engine';
import { promptBlockHashes } from '../block-hashes.js';
import { TraceReadError } from '../errors.js';
import { quoteExcerpt } from '../text-excerpt.js';
import { AzureTimestampReader, azureTimestampUs } from './azure-timestamp.js';
import { LineReader, intFieldAt } from './line-reader.js';
import { TRACE_LIMITS } from './trace-limits.js';
import { type TraceOptions, TraceRequestSource } from './trace-source.js';

/**
 * Streams the Azure LLM inference trace CSV (`TIMESTAMP,ContextTokens,GeneratedTokens`): times
 * are made relative to the first row; each prompt is unique content (the trace has no sharing).
 */
export function openAzureTrace(path: string, opts: TraceOptions = {}): TraceRequestSource {
  const lines = new LineReader(path);
  const header = lines.next();
  if (header === undefined || !/^TIMESTAMP,ContextTokens,GeneratedTokens/i.test(header.trim()))
    throw new TraceReadError({ file: path, line: 1, expected: 'an Azure trace CSV, whose header is TIMESTAMP,ContextTokens,GeneratedTokens', found: header === undefined ? 'an empty file' : quoteExcerpt(header) });
  const bs = opts.blockSizeTokens ?? 16;
  const clock = new AzureTimestampReader();
  let origin: number | undefined;
  let row = 0;
  const read = (): RequestSpec | undefined => {
    let line = lines.next();
    while (line !== undefined && line.trim() === '') line = lines.next();
    if (line === undefined) return undefined;
    const ln = lines.lineNumber;
    // Columns found in place: a split would allocate an array and three strings per row.
    const c1 = line.indexOf(',');
    const c2 = c1 < 0 ? -1 : line.indexOf(',', c1 + 1);
    if (c2 < 0 || line.indexOf(',', c2 + 1) >= 0) throw new TraceReadError({ file: path, line: ln, expected: '3 columns', found: `${line.split(',').length}` });
    // A field padded with whitespace is read the slow way.
    const t = clock.read(line, 0, c1) ?? azureTimestampUs(line.slice(0, c1));
    if (t === undefined) throw new TraceReadError({ file: path, line: ln, field: 'TIMESTAMP', expected: 'a real date and time, YYYY-MM-DD HH:MM:SS[.fffffff]', found: quoteExcerpt(line.slice(0, c1)) });
    origin ??= t;
    const inputTokens = intFieldAt(line, c1 + 1, c2, path, ln, 'ContextTokens', 1, TRACE_LIMITS.maxRequestTokens);
    const outputTokens = intFieldAt(line, c2 + 1, line.length, path, ln, 'GeneratedTokens', 0, TRACE_LIMITS.maxRequestTokens);
    const id = String(row++);
    return {
      index: 0,
      id,
      arrivalUs: t - origin,
      inputTokens,
      outputTokens,
      blockHashes: promptBlockHashes({ id, inputTokens, prefixGroup: '', prefixLength: 0, sessionId: '' }, bs),
      // Ids are row numbers and nothing is shared: every block is this request's alone.
      sharedPrefixBlocks: 0,
      clientId: '',
      tenantId: '',
      sloClass: '',
      sessionId: '',
      roundIndex: 0,
      prefixGroup: '',
      prefixLength: 0,
      streaming: false,
      deadlineUs: 0,
      sloTargetUs: 0,
      networkDelayUs: 0,
    };
  };
  return new TraceRequestSource(path, read, () => lines.lineNumber, opts, 'TIMESTAMP');
}
