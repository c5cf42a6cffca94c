import { closeSync, existsSync, openSync, readFileSync, writeSync } from 'node:fs';
import type { RequestSource, RequestSpec } from '@blis/engine';
import { parse } from 'yaml';
import { z } from 'zod';
import { requestBlockHashes } from '../block-hashes.js';
import { describeExpected } from '../describe-issue.js';
import { TraceReadError } from '../errors.js';
import { LineReader, csvField, intField, splitCsv } from './line-reader.js';
import { type TraceOptions, TraceRequestSource } from './trace-source.js';

/** BLIS TraceV2's 27 CSV columns, in order. */
export const TRACEV2_COLUMNS = [
  'request_id', 'client_id', 'tenant_id', 'slo_class', 'session_id', 'round_index', 'prefix_group', 'prefix_length',
  'streaming', 'input_tokens', 'output_tokens', 'text_tokens', 'image_tokens', 'audio_tokens', 'video_tokens',
  'reason_ratio', 'model', 'deadline_us', 'server_input_tokens', 'arrival_time_us', 'send_time_us',
  'first_chunk_time_us', 'last_chunk_time_us', 'num_chunks', 'status', 'error_message', 'finish_reason',
] as const;

const UNIT_US: Record<string, number> = { microseconds: 1, us: 1, milliseconds: 1000, ms: 1000, seconds: 1_000_000, s: 1_000_000 };

export const TraceV2HeaderSchema = z
  .object({
    trace_version: z.union([z.literal(2), z.literal('2')]),
    time_unit: z.enum(Object.keys(UNIT_US) as [string, ...string[]]).default('microseconds'),
    mode: z.string().default('real'),
    warm_up_requests: z.number().int().nonnegative().default(0),
  })
  .loose();
export type TraceV2Header = z.output<typeof TraceV2HeaderSchema>;

/** The header (.yaml) and data (.csv) paths of a TraceV2 pair, given either one. */
export function traceV2Pair(path: string): { header: string; csv: string } {
  const stem = path.replace(/\.(ya?ml|csv)$/i, '');
  const header = existsSync(`${stem}.yaml`) ? `${stem}.yaml` : `${stem}.yml`;
  return { header, csv: `${stem}.csv` };
}

function readHeader(path: string): TraceV2Header {
  let raw: unknown;
  try {
    raw = parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new TraceReadError({ file: path, expected: 'a readable TraceV2 YAML header', found: (e as NodeJS.ErrnoException).code ?? (e as Error).message.split('\n')[0] });
  }
  const r = TraceV2HeaderSchema.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new TraceReadError({ file: path, field: i.path.join('.'), expected: describeExpected(i), found: JSON.stringify((raw as Record<string, unknown>)?.[String(i.path[0])]) });
  }
  return r.data;
}

/** Streams a BLIS TraceV2 pair (header YAML + 27-column CSV) as requests. */
export function openTraceV2(path: string, opts: TraceOptions = {}): TraceRequestSource {
  const { header, csv } = traceV2Pair(path);
  const h = existsSync(header) ? readHeader(header) : TraceV2HeaderSchema.parse({ trace_version: 2 });
  const unit = UNIT_US[h.time_unit];
  const bs = opts.blockSizeTokens ?? 16;
  const lines = new LineReader(csv);
  const first = lines.next();
  if (first === undefined || splitCsv(first)[0] !== 'request_id')
    throw new TraceReadError({ file: csv, line: 1, expected: `a header row starting with request_id (${TRACEV2_COLUMNS.length} columns)`, found: JSON.stringify(first?.slice(0, 60) ?? 'an empty file') });
  const read = (): RequestSpec | undefined => {
    let line = lines.next();
    while (line !== undefined && line.trim() === '') line = lines.next();
    if (line === undefined) return undefined;
    const ln = lines.lineNumber;
    const c = splitCsv(line);
    if (c.length !== TRACEV2_COLUMNS.length)
      throw new TraceReadError({ file: csv, line: ln, expected: `${TRACEV2_COLUMNS.length} columns`, found: `${c.length}` });
    const inputTokens = intField(c[9], csv, ln, 'input_tokens', 1);
    const outputTokens = intField(c[10], csv, ln, 'output_tokens');
    const arrival = intField(c[19], csv, ln, 'arrival_time_us') * unit;
    const deadline = c[17].trim() === '' ? 0 : intField(c[17], csv, ln, 'deadline_us') * unit;
    const prefixLength = c[7].trim() === '' ? 0 : intField(c[7], csv, ln, 'prefix_length');
    const roundIndex = c[5].trim() === '' ? 0 : intField(c[5], csv, ln, 'round_index');
    if (c[8] !== 'true' && c[8] !== 'false' && c[8] !== '')
      throw new TraceReadError({ file: csv, line: ln, field: 'streaming', expected: 'true or false', found: JSON.stringify(c[8]) });
    const id = c[0];
    const prefixGroup = c[6];
    const sessionId = c[4];
    return {
      index: 0,
      id,
      arrivalUs: arrival,
      inputTokens,
      outputTokens,
      // A session row's answer is part of the session's next rows' prompts (see docs/workloads.md).
      ...requestBlockHashes({ id, inputTokens, prefixGroup, prefixLength, sessionId }, outputTokens, bs),
      clientId: c[1],
      tenantId: c[2],
      sloClass: c[3],
      sessionId,
      roundIndex,
      prefixGroup,
      prefixLength,
      streaming: c[8] === 'true',
      deadlineUs: deadline > 0 ? arrival + deadline : 0,
      sloTargetUs: 0,
      networkDelayUs: 0,
    };
  };
  return new TraceRequestSource(csv, read, () => lines.lineNumber, opts);
}

/**
 * Writes every request of `source` as a BLIS TraceV2 pair. Arrival times are written as given;
 * closed-loop sessions are written with the arrivals they would have without feedback, so a
 * replay has fixed arrivals (documented in the README).
 */
export function writeTraceV2(source: RequestSource, headerPath: string, csvPath: string, header: Partial<TraceV2Header> = {}): number {
  const h = { trace_version: 2, time_unit: 'microseconds', mode: 'generated', warm_up_requests: 0, ...header };
  const fd = openSync(csvPath, 'w');
  let n = 0;
  try {
    let buf = `${TRACEV2_COLUMNS.join(',')}\n`;
    for (let r = source.next(); r !== undefined; r = source.next()) {
      const row = [
        r.id, r.clientId, r.tenantId, r.sloClass, r.sessionId, r.roundIndex, r.prefixGroup, r.prefixLength,
        r.streaming, r.inputTokens, r.outputTokens, r.inputTokens, 0, 0, 0, 0, '', r.deadlineUs > 0 ? r.deadlineUs - r.arrivalUs : 0,
        0, r.arrivalUs, r.arrivalUs, 0, 0, 0, 'ok', '', '',
      ];
      buf += `${row.map(csvField).join(',')}\n`;
      n++;
      // Closed-loop sources wait for completions; without a simulator, each round completes at once.
      source.onRequestDone?.(r, r.arrivalUs, 'completed');
      if (buf.length > 65536) {
        writeSync(fd, buf);
        buf = '';
      }
    }
    writeSync(fd, buf);
  } finally {
    closeSync(fd);
  }
  const yaml = Object.entries(h).map(([k, v]) => `${k}: ${v}`).join('\n');
  const hfd = openSync(headerPath, 'w');
  writeSync(hfd, `${yaml}\n`);
  closeSync(hfd);
  return n;
}
