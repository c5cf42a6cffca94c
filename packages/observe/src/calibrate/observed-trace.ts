import { TraceReadError, readTraceV2Header } from '@blis/workload';
import { LineReader, intField, splitCsv } from '@blis/workload/internal';
import { formatParamPath, quoteExcerpt, zodIssueTexts } from '@blis/policies/internal';
import * as z from 'zod';
import { CalibrationInputError } from './errors.js';
import { numericRequestId } from './request-id.js';

/** One row of a recorded TraceV2 data file, as far as calibrate needs it. Times are epoch µs. */
export interface ObservedTraceRow {
  requestId: number;
  /** The prompt's own tokens (behind any group prefix), as the client counted them. */
  inputTokens: number;
  /** The server's `prompt_tokens` (0 when it did not report one). */
  serverInputTokens: number;
  outputTokens: number;
  sendTimeUs: number;
  firstChunkTimeUs: number;
  lastChunkTimeUs: number;
  numChunks: number;
  /** `ok`, `error` or `timeout`. */
  status: string;
  sloClass: string;
  model: string;
}

/** Per-class goodput targets in milliseconds; 0 means the dimension is not gated. */
export interface SloDimTargets {
  ttftMs: number;
  itlMs: number;
  e2eMs: number;
}

/** The header fields calibrate reads. */
export interface ObservedTraceHeader {
  warmUpRequests: number;
  /** `network.measured_rtt_ms`, when the recorder measured one. */
  measuredRttMs?: number;
  goodputSloTargets: Record<string, SloDimTargets>;
  observedKvMetrics?: { source: string; hitRate: number };
}

export interface ObservedTrace {
  header: ObservedTraceHeader;
  records: ObservedTraceRow[];
}

/** The columns calibrate reads, found by name: BLIS inserts optional columns between them. */
export const OBSERVED_COLUMNS = [
  'request_id', 'slo_class', 'input_tokens', 'output_tokens', 'model', 'server_input_tokens',
  'send_time_us', 'first_chunk_time_us', 'last_chunk_time_us', 'num_chunks', 'status',
] as const;

// The base header schema keeps unknown keys loosely; these are the ones calibrate relies on.
const ExtraHeaderSchema = z.object({
  network: z.object({ measured_rtt_ms: z.number().nonnegative().optional() }).loose().optional(),
  goodput_slo_targets: z
    .record(z.string().min(1), z.object({ ttft_ms: z.number().nonnegative().optional(), itl_ms: z.number().nonnegative().optional(), e2e_ms: z.number().nonnegative().optional() }).strict())
    .optional(),
});

/** Reads the calibrate-relevant parts of a TraceV2 header YAML. */
export function readObservedHeader(path: string): ObservedTraceHeader {
  const h = readTraceV2Header(path);
  const extra = ExtraHeaderSchema.safeParse(h);
  if (!extra.success) {
    const [t] = zodIssueTexts(extra.error.issues, h);
    throw new CalibrationInputError([{ file: path, field: formatParamPath(t.path, ''), expected: t.expected, found: t.found }]);
  }
  const targets: Record<string, SloDimTargets> = {};
  for (const [cls, t] of Object.entries(extra.data.goodput_slo_targets ?? {})) targets[cls] = { ttftMs: t.ttft_ms ?? 0, itlMs: t.itl_ms ?? 0, e2eMs: t.e2e_ms ?? 0 };
  const kv = h.observed_kv_metrics;
  return {
    warmUpRequests: h.warm_up_requests,
    measuredRttMs: extra.data.network?.measured_rtt_ms,
    goodputSloTargets: targets,
    observedKvMetrics: kv === undefined ? undefined : { source: kv.source, hitRate: kv.hit_rate },
  };
}

/** Reads the rows of a TraceV2 data CSV; every problem names the file, the line and the column. */
export function readObservedRecords(path: string): ObservedTraceRow[] {
  const lines = new LineReader(path);
  try {
    const first = lines.next();
    const names = first === undefined ? [] : splitCsv(first);
    const missing = OBSERVED_COLUMNS.find((n) => !names.includes(n));
    if (missing !== undefined)
      throw new TraceReadError({ file: path, line: 1, expected: `a TraceV2 header row naming the columns ${OBSERVED_COLUMNS.join(', ')}`, found: first === undefined ? 'an empty file' : `no ${missing} column` });
    const col = Object.fromEntries(OBSERVED_COLUMNS.map((n) => [n, names.indexOf(n)])) as Record<(typeof OBSERVED_COLUMNS)[number], number>;
    const out: ObservedTraceRow[] = [];
    for (let line = lines.next(); line !== undefined; line = lines.next()) {
      if (line.trim() === '') continue;
      const ln = lines.lineNumber;
      const c = splitCsv(line);
      if (c.length !== names.length) throw new TraceReadError({ file: path, line: ln, expected: `${names.length} columns (as in the header row)`, found: `${c.length}` });
      const int = (name: (typeof OBSERVED_COLUMNS)[number]) => intField(c[col[name]], path, ln, name);
      // Generated traces leave these empty or 0; a recorded one fills them.
      const optInt = (name: (typeof OBSERVED_COLUMNS)[number]) => (c[col[name]].trim() === '' ? 0 : int(name));
      const requestId = numericRequestId(c[col.request_id]);
      if (requestId === undefined) throw new TraceReadError({ file: path, line: ln, field: 'request_id', expected: 'a non-negative integer id (as `blis observe` writes)', found: quoteExcerpt(c[col.request_id] ?? '') });
      out.push({
        requestId,
        inputTokens: int('input_tokens'),
        serverInputTokens: optInt('server_input_tokens'),
        outputTokens: int('output_tokens'),
        sendTimeUs: int('send_time_us'),
        firstChunkTimeUs: optInt('first_chunk_time_us'),
        lastChunkTimeUs: optInt('last_chunk_time_us'),
        numChunks: optInt('num_chunks'),
        status: c[col.status].trim(),
        sloClass: c[col.slo_class],
        model: c[col.model],
      });
    }
    return out;
  } finally {
    lines.close();
  }
}

/** A recorded TraceV2 pair: header YAML and data CSV. */
export function readObservedTrace(headerPath: string, dataPath: string): ObservedTrace {
  return { header: readObservedHeader(headerPath), records: readObservedRecords(dataPath) };
}
