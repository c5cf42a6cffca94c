import type { RequestSpec } from '@blis/engine';
import { promptBlockHashes } from '../block-hashes.js';
import { TraceReadError } from '../errors.js';
import { quoteExcerpt } from '../text-excerpt.js';
import { LineReader, intField } from './line-reader.js';
import { TRACE_LIMITS } from './trace-limits.js';
import { type TraceOptions, TraceRequestSource } from './trace-source.js';

const TS = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?$/;

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysIn(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month === 2 && leap ? 29 : DAYS[month - 1];
}

/**
 * Microseconds since the epoch of an Azure timestamp, floored with exact integer arithmetic;
 * undefined when it is not `YYYY-MM-DD HH:MM:SS[.fffffff]` or names no real moment (month 13,
 * February 30th, 25:61): Date.UTC would roll those over to another date.
 */
export function azureTimestampUs(ts: string): number | undefined {
  const m = TS.exec(ts.trim());
  if (m === null) return undefined;
  const [y, mo, d, h, mi, s] = [+m[1], +m[2], +m[3], +m[4], +m[5], +m[6]];
  if (mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || h > 23 || mi > 59 || s > 59) return undefined;
  // setUTCFullYear, not Date.UTC: that reads years 0 to 99 as 1900 to 1999.
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, 0);
  const secs = date.getTime() / 1000;
  const frac = (m[7] ?? '').padEnd(6, '0').slice(0, 6);
  return secs * 1_000_000 + Number(frac);
}

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
  let origin: number | undefined;
  let row = 0;
  const read = (): RequestSpec | undefined => {
    let line = lines.next();
    while (line !== undefined && line.trim() === '') line = lines.next();
    if (line === undefined) return undefined;
    const ln = lines.lineNumber;
    const c = line.split(',');
    if (c.length !== 3) throw new TraceReadError({ file: path, line: ln, expected: '3 columns', found: `${c.length}` });
    const t = azureTimestampUs(c[0]);
    if (t === undefined) throw new TraceReadError({ file: path, line: ln, field: 'TIMESTAMP', expected: 'a real date and time, YYYY-MM-DD HH:MM:SS[.fffffff]', found: quoteExcerpt(c[0]) });
    origin ??= t;
    const inputTokens = intField(c[1], path, ln, 'ContextTokens', 1, TRACE_LIMITS.maxRequestTokens);
    const outputTokens = intField(c[2], path, ln, 'GeneratedTokens', 0, TRACE_LIMITS.maxRequestTokens);
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
