import { closeSync, existsSync, openSync, writeSync } from '#host-files';
import type { RequestSource, RequestSpec } from '@blis/engine';
import { stringify } from 'yaml';
import * as z from 'zod';
import { requestBlockHashes } from '../block-hashes.js';
import { describeExpected } from '../describe-issue.js';
import { keyText, quoteExcerpt, valueExcerpt } from '../text-excerpt.js';
import { parseYamlInput, readYamlText } from '../yaml-input.js';
import { TraceReadError } from '../errors.js';
import { LineReader, csvField, intField, splitCsv } from './line-reader.js';
import { TraceKVOffloadSchema, TraceObservedKVMetricsSchema } from './tracev2-kv-offload.js';
import { PrefixColumnWriter, readPrefixGroupLengths } from './tracev2-prefix.js';
import { scanSendTimes } from './tracev2-send-times.js';
import { type Lines, TextLines } from './text-lines.js';
import { type TraceOptions, TraceRequestSource } from './trace-source.js';
import { TRACEV2_COLUMNS } from './tracev2-columns.js';
import { TRACE_LIMITS } from './trace-limits.js';

export { TRACEV2_COLUMNS };

const MAX_TOKENS = TRACE_LIMITS.maxRequestTokens;

const UNIT_US: Record<string, number> = { microseconds: 1, us: 1, milliseconds: 1000, ms: 1000, seconds: 1_000_000, s: 1_000_000 };

/**
 * BLIS's TraceV2 header (`TraceHeader`, sim/workload/tracev2.go), read as BLIS reads it: strictly
 * (yaml.v3 `KnownFields(true)`), so a misspelt key is an error rather than a setting ignored.
 * Keys this reader does not use are checked for their name only (`blis calibrate` reads the
 * goodput targets and the network block itself).
 */
export const TraceV2HeaderSchema = z.strictObject({
  // BLIS has written version 3 since it added header-only fields; the rows are the same.
  trace_version: z.union([z.literal(2), z.literal('2'), z.literal(3), z.literal('3')]),
  time_unit: z.enum(Object.keys(UNIT_US) as [string, ...string[]]).default('microseconds'),
  created_at: z.unknown().optional(),
  /** `real` (observe), `generated` (run) or `replayed`; absent in hand-made traces (read as real where BLIS does). */
  mode: z.string().optional(),
  warm_up_requests: z.number().int().nonnegative().default(0),
  workload_seed: z.unknown().optional(),
  workload_spec: z.unknown().optional(),
  /** How closed-loop session replay builds a follow-up's prompt: `accumulate` (previous prompt, answer, new turn) or absent (prefix and new turn); read only by `--session-mode closed-loop`, as in BLIS. */
  session_context_growth: z.unknown().optional(),
  server: z
    .strictObject(Object.fromEntries(['type', 'model', 'tensor_parallel', 'max_num_seqs', 'block_size', 'gpu_memory_utilization', 'max_model_len'].map((k) => [k, z.unknown().optional()])))
    .nullable()
    .optional(),
  network: z.strictObject({ measured_rtt_ms: z.unknown().optional() }).nullable().optional(),
  goodput_slo_targets: z.unknown().optional(),
  /** The resolved offload chain the trace was simulated with; authoritative on replay (BLIS INV-13). */
  kv_offload: TraceKVOffloadSchema.optional(),
  /** A real server's scraped KV hit rate (`blis observe`). */
  observed_kv_metrics: TraceObservedKVMetricsSchema.optional(),
});

/** The keys a header may have at `path` (top level, `server`, `network`), for a message naming an unknown one. */
function knownHeaderKeys(path: readonly PropertyKey[]): string {
  const shape = path.length === 0 ? TraceV2HeaderSchema.shape : path[0] === 'server' ? TraceV2HeaderSchema.shape.server.unwrap().unwrap().shape : path[0] === 'network' ? TraceV2HeaderSchema.shape.network.unwrap().unwrap().shape : undefined;
  return shape === undefined ? '' : ` (${Object.keys(shape).join(', ')})`;
}
export type TraceV2Header = z.output<typeof TraceV2HeaderSchema>;

/**
 * The header (.yaml) and data (.csv) paths of a TraceV2 pair, given either one. A path with
 * another extension is the data itself (its header, if any, beside it as `<stem>.yaml`): the
 * user named that file, and a message must name it.
 */
export function traceV2Pair(path: string): { header: string; csv: string } {
  if (!/\.(ya?ml|csv)$/i.test(path)) {
    const stem = path.replace(/\.[^./\\]*$/, '');
    return { header: existsSync(`${stem}.yaml`) ? `${stem}.yaml` : `${stem}.yml`, csv: path };
  }
  const stem = path.replace(/\.(ya?ml|csv)$/i, '');
  const header = existsSync(`${stem}.yaml`) ? `${stem}.yaml` : `${stem}.yml`;
  return { header, csv: `${stem}.csv` };
}

/** Reads and validates a TraceV2 header YAML; problems name the file, the line and the field. */
export function readTraceV2Header(path: string): TraceV2Header {
  const read = readYamlText(path, 'TraceV2 YAML header');
  if (!read.ok) throw new TraceReadError(read.issues[0]);
  return parseTraceV2Header(read.text, path);
}

/** Parses and validates a TraceV2 header from YAML text; problems name `file`, the line and the field. */
export function parseTraceV2Header(text: string, file: string): TraceV2Header {
  const parsed = parseYamlInput(text, file);
  if (!parsed.ok) throw new TraceReadError(parsed.issues[0]);
  const doc = parsed.yaml.doc;
  const lc = parsed.yaml.lineCounter;
  const raw = parsed.yaml.value;
  const r = TraceV2HeaderSchema.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0];
    // An unknown key is reported at the key itself, not at its parent mapping.
    const path_ = i.code === 'unrecognized_keys' ? [...i.path, i.keys[0]] : i.path;
    const node = doc.getIn(path_ as (string | number)[], true) as { range?: [number, number, number] } | undefined;
    const parent = doc.getIn(i.path as (string | number)[], true) as { range?: [number, number, number] } | undefined;
    const at = node?.range ?? parent?.range;
    throw new TraceReadError({
      file,
      line: at !== undefined ? lc.linePos(at[0]).line : undefined,
      // A long unknown key (a key can be any length) is named once, as an excerpt, after its parent.
      field: i.code === 'unrecognized_keys' && i.keys[0].length > 40 ? (i.path.length > 0 ? fieldPath(i.path) : undefined) : fieldPath(path_),
      expected: i.code === 'unrecognized_keys' ? `a key BLIS's TraceV2 header defines${knownHeaderKeys(i.path)}` : describeExpected(i),
      found: i.code === 'unrecognized_keys' ? `unknown key ${quoteExcerpt(i.keys[0], 40)}` : valueExcerpt(doc.getIn(path_ as (string | number)[])),
    });
  }
  return r.data;
}

/** `kv_offload.secondary_tiers[0].type`, as the CLI names keys. */
function fieldPath(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i > 0 ? '.' : ''}${keyText(p)}`)).join('');
}

/**
 * Streams a BLIS TraceV2 pair (header YAML + CSV with the 27 standard columns, optional ones
 * allowed) as requests, with BLIS's prompt lengths: `input_tokens` behind the group's prefix.
 */
export function openTraceV2(path: string, opts: TraceOptions = {}): TraceRequestSource {
  const { header, csv } = opts.dataPath !== undefined ? { header: path, csv: opts.dataPath } : traceV2Pair(path);
  const h = existsSync(header) ? readTraceV2Header(header) : TraceV2HeaderSchema.parse({ trace_version: 2 });
  return traceV2Source(h, csv, () => new LineReader(csv), opts);
}

/**
 * A TraceV2 pair held as text (an upload in a browser): as {@link openTraceV2}, errors naming
 * `headerName` and `dataName` with their lines.
 */
export function openTraceV2Text(pair: { header: string; headerName: string; data: string; dataName: string }, opts: Omit<TraceOptions, 'dataPath'> = {}): TraceRequestSource {
  const h = parseTraceV2Header(pair.header, pair.headerName);
  return traceV2Source(h, pair.dataName, () => new TextLines(pair.data), opts);
}

/** The rows of a TraceV2 data CSV named `csv`, read (three passes) through `open`. */
function traceV2Source(h: TraceV2Header, csv: string, open: () => Lines, opts: TraceOptions): TraceRequestSource {
  const rows = traceV2Rows(h, csv, open, opts);
  const read = (): RequestSpec | undefined => rows.read()?.spec;
  return new TraceRequestSource(csv, rows.ordered ? read : sortedByArrival(read, csv, rows.lineOf), rows.lineOf, opts, 'send_time_us');
}

/** A TraceV2 data row: the request it is, and what closed-loop session replay also reads. */
export interface TraceV2Row {
  spec: RequestSpec;
  /** `arrival_time_us` in µs (not the send time the request is injected at). */
  arrivalTimeUs: number;
  /** The optional trailing `think_time_us` column, µs (0: not recorded). */
  thinkTimeUs: number;
  /** The row's own `prefix_length` column (the request carries its group's length). */
  prefixLengthColumn: number;
}

/** The rows of a TraceV2 pair in file order, the line being read, and whether injection times never decrease. */
export interface TraceV2Rows {
  read(): TraceV2Row | undefined;
  lineOf(): number;
  ordered: boolean;
}

function traceV2Rows(h: TraceV2Header, csv: string, open: () => Lines, opts: Pick<TraceOptions, 'blockSizeTokens'>): TraceV2Rows {
  const unit = UNIT_US[h.time_unit];
  const bs = opts.blockSizeTokens ?? 16;
  const lines = open();
  const first = lines.next();
  const names = first === undefined ? [] : splitCsv(first);
  const missing = TRACEV2_COLUMNS.find((n) => !names.includes(n));
  if (names[0] !== 'request_id' || missing !== undefined)
    throw new TraceReadError({
      file: csv,
      line: 1,
      expected: `a TraceV2 data CSV, whose header row starts with request_id and names all ${TRACEV2_COLUMNS.length} TraceV2 columns`,
      found: names[0] === 'request_id' ? `no ${missing} column` : first === undefined ? 'an empty file' : quoteExcerpt(first),
    });
  // BLIS inserts optional columns (vllm_priority, slo_target_us, ...) when it has values for
  // them, so columns are found by name.
  const col = Object.fromEntries(TRACEV2_COLUMNS.map((n) => [n, names.indexOf(n)])) as Record<(typeof TRACEV2_COLUMNS)[number], number>;
  const sloCol = names.indexOf('slo_target_us');
  // BLIS appends an `adapter` column (a LoRA adapter id) when any row has one.
  const adapterCol = names.indexOf('adapter');
  // BLIS appends `think_time_us` when a converter recorded client think times (#1478).
  const thinkCol = names.indexOf('think_time_us');
  const groupLength = readPrefixGroupLengths(open(), col.prefix_group, col.prefix_length);
  const sends = scanSendTimes(open(), col.send_time_us, col.arrival_time_us, unit);
  const read = (): TraceV2Row | undefined => {
    let line = lines.next();
    while (line !== undefined && line.trim() === '') line = lines.next();
    if (line === undefined) return undefined;
    const ln = lines.lineNumber;
    const c = splitCsv(line);
    if (c.length !== names.length) throw new TraceReadError({ file: csv, line: ln, expected: `${names.length} columns (as in the header row)`, found: `${c.length}` });
    const opt = (name: (typeof TRACEV2_COLUMNS)[number]) => (c[col[name]].trim() === '' ? 0 : intField(c[col[name]], csv, ln, name));
    const ownTokens = intField(c[col.input_tokens], csv, ln, 'input_tokens', 0, MAX_TOKENS);
    const outputTokens = intField(c[col.output_tokens], csv, ln, 'output_tokens', 0, MAX_TOKENS);
    const arrivalRaw = intField(c[col.arrival_time_us], csv, ln, 'arrival_time_us');
    const send = opt('send_time_us');
    const deadlineRaw = opt('deadline_us');
    if (deadlineRaw > 0 && deadlineRaw < arrivalRaw)
      throw new TraceReadError({ file: csv, line: ln, field: 'deadline_us', expected: `0 (no timeout) or an absolute time at or after arrival_time_us (${arrivalRaw})`, found: String(deadlineRaw) });
    // Injected at the send time when there is one (BLIS); the deadline keeps its distance from arrival.
    const arrival = (send > 0 ? send - sends.shift : arrivalRaw) * unit;
    const deadline = deadlineRaw > 0 ? arrival + (deadlineRaw - arrivalRaw) * unit : 0;
    const prefixLengthColumn = opt('prefix_length'); // the group's length is what a request carries
    const roundIndex = opt('round_index');
    const serverInput = c[col.server_input_tokens].trim() === '' ? 0 : intField(c[col.server_input_tokens], csv, ln, 'server_input_tokens', 0, MAX_TOKENS);
    const streaming = c[col.streaming];
    if (streaming !== 'true' && streaming !== 'false' && streaming !== '')
      throw new TraceReadError({ file: csv, line: ln, field: 'streaming', expected: 'true or false', found: quoteExcerpt(streaming) });
    const id = c[col.request_id];
    const prefixGroup = c[col.prefix_group];
    const sessionId = c[col.session_id];
    const prefixLength = prefixGroup !== '' ? (groupLength.get(prefixGroup) ?? 0) : 0;
    // A server-reported count includes the chat template, so BLIS trusts it, except in a
    // group, where it would count the prefix twice.
    const inputTokens = prefixLength + (prefixGroup === '' && serverInput > 0 ? serverInput : ownTokens);
    if (inputTokens > MAX_TOKENS)
      throw new TraceReadError({ file: csv, line: ln, field: 'input_tokens', expected: `a prompt of at most ${MAX_TOKENS} tokens (input_tokens plus the group prefix)`, found: `${inputTokens}` });
    if (inputTokens < 1) throw new TraceReadError({ file: csv, line: ln, field: 'input_tokens', expected: 'a prompt of at least 1 token (input_tokens plus the group prefix)', found: String(ownTokens) });
    const slo = sloCol >= 0 && c[sloCol].trim() !== '' ? intField(c[sloCol], csv, ln, 'slo_target_us') : 0;
    const thinkTimeUs = thinkCol >= 0 && c[thinkCol].trim() !== '' ? intField(c[thinkCol], csv, ln, 'think_time_us', 0) : 0;
    const spec: RequestSpec = {
      index: 0,
      id,
      arrivalUs: arrival,
      inputTokens,
      outputTokens,
      // A session row's answer is part of the session's next rows' prompts (see docs/workloads.md).
      ...requestBlockHashes({ id, inputTokens, prefixGroup, prefixLength, sessionId }, outputTokens, bs),
      clientId: c[col.client_id],
      tenantId: c[col.tenant_id],
      sloClass: c[col.slo_class],
      sessionId,
      roundIndex,
      prefixGroup,
      prefixLength,
      streaming: streaming === 'true',
      deadlineUs: deadline,
      sloTargetUs: slo,
      networkDelayUs: 0,
      ...(adapterCol >= 0 && c[adapterCol].trim() !== '' ? { adapter: c[adapterCol].trim() } : {}),
    };
    return { spec, arrivalTimeUs: arrivalRaw * unit, thinkTimeUs, prefixLengthColumn };
  };
  return { read, lineOf: () => lines.lineNumber, ordered: sends.ordered };
}

/** The rows of a TraceV2 pair (as {@link openTraceV2} names them) in file order, with its header. */
export function openTraceV2Rows(path: string, opts: Pick<TraceOptions, 'blockSizeTokens' | 'dataPath'> = {}): { header: TraceV2Header; headerPath: string; csv: string; rows: TraceV2Rows } {
  const { header, csv } = opts.dataPath !== undefined ? { header: path, csv: opts.dataPath } : traceV2Pair(path);
  const h = existsSync(header) ? readTraceV2Header(header) : TraceV2HeaderSchema.parse({ trace_version: 2 });
  return { header: h, headerPath: header, csv, rows: traceV2Rows(h, csv, () => new LineReader(csv), opts) };
}

/**
 * Reads every row first and hands them out by injection time (stable), for out-of-order sends;
 * at most {@link TRACE_LIMITS}.maxSortedRows rows, all held in memory.
 */
function sortedByArrival(read: () => RequestSpec | undefined, csv: string, lineOf: () => number): () => RequestSpec | undefined {
  let rows: RequestSpec[] | undefined;
  let i = 0;
  return () => {
    if (rows === undefined) {
      rows = [];
      for (let r = read(); r !== undefined; r = read()) {
        if (rows.length === TRACE_LIMITS.maxSortedRows)
          throw new TraceReadError({
            file: csv,
            line: lineOf(),
            expected: `at most ${TRACE_LIMITS.maxSortedRows} rows when send times are out of order (they are sorted in memory)`,
            found: 'more rows',
          });
        rows.push(r);
      }
      rows.sort((a, b) => a.arrivalUs - b.arrivalUs);
    }
    return rows[i++];
  };
}

/** What a simulated run made of a written request: its chunk times (0 = none) and BLIS's status (`ok`, `timeout`, `incomplete`). */
export interface TraceV2RowOutcome {
  firstChunkUs: number;
  lastChunkUs: number;
  status: string;
}

/**
 * Writes every request of `source` as a BLIS TraceV2 pair; `outcome` gives each row the run's
 * chunk times and status (without it, none and `ok`, as a conversion has no run). Arrival times are written as given;
 * closed-loop sessions are written with the arrivals they would have without feedback, so a
 * replay has fixed arrivals (documented in the README).
 */
export function writeTraceV2(
  source: RequestSource,
  headerPath: string,
  csvPath: string,
  header: Partial<TraceV2Header> = {},
  outcome?: (r: RequestSpec) => TraceV2RowOutcome,
  /** Append BLIS's trailing `adapter` column (it writes one when any request has a LoRA adapter). */
  adapterColumn = false,
): number {
  const h = { trace_version: 2, time_unit: 'microseconds', mode: 'generated', warm_up_requests: 0, ...header };
  const fd = openSync(csvPath, 'w');
  let n = 0;
  const prefixColumns = new PrefixColumnWriter();
  try {
    let buf = `${TRACEV2_COLUMNS.join(',')}${adapterColumn ? ',adapter' : ''}\n`;
    for (let r = source.next(); r !== undefined; r = source.next()) {
      // As BLIS's exporter: input_tokens excludes the group prefix, the deadline is absolute, and
      // text_tokens (with the media columns) counts a multimodal prompt's parts, so 0 here.
      const p = prefixColumns.columns(r.prefixGroup, r.prefixLength, r.inputTokens);
      const o = outcome?.(r);
      const row = [
        r.id, r.clientId, r.tenantId, r.sloClass, r.sessionId, r.roundIndex, r.prefixGroup, p.prefixLength,
        r.streaming, p.ownTokens, r.outputTokens, 0, 0, 0, 0, 0, '', r.deadlineUs,
        0, r.arrivalUs, r.arrivalUs, ...(o === undefined ? [0, 0, 0, 'ok'] : [o.firstChunkUs, o.lastChunkUs, 0, o.status]), '', '',
      ];
      if (adapterColumn) row.push(r.adapter ?? '');
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
  // Nested blocks (kv_offload) need real YAML; flat headers come out as `key: value` lines as before.
  const hfd = openSync(headerPath, 'w');
  writeSync(hfd, stringify(h));
  closeSync(hfd);
  return n;
}
