import fc from 'fast-check';
import { TRACEV2_COLUMNS } from '../traces/tracev2-columns.js';

/** A generated trace: the file text a trace reader accepts, and what each row should read back as. */
export interface GeneratedTrace {
  /** File contents: CSV for Azure and TraceV2, JSON lines for Mooncake. */
  readonly text: string;
  /** Per data row, in file order: its arrival relative to the trace's time origin, and its lengths. */
  readonly rows: readonly { readonly arrivalUs: number; readonly inputTokens: number; readonly outputTokens: number }[];
}

/** Options shared by the trace arbitraries. */
export interface TraceArbOptions {
  /** Fewest and most data rows. Defaults 1 and 40. */
  minRows?: number;
  maxRows?: number;
}

const gapsArb = (o: TraceArbOptions, maxGap: number) =>
  fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: maxGap })), { minLength: o.minRows ?? 1, maxLength: o.maxRows ?? 40 });

/** Times that never decrease, starting at `gaps[0]`. */
function cumulative(gaps: readonly number[]): number[] {
  let t = 0;
  return gaps.map((g) => (t += g));
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');

/** `YYYY-MM-DD HH:MM:SS.fffffff` (Azure's 7 fractional digits) for µs since the epoch. */
function azureTimestamp(us: number): string {
  const d = new Date(Math.floor(us / 1000));
  const frac = pad(us % 1_000_000, 6);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)} ${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}.${frac}0`;
}

/**
 * An Azure LLM inference trace CSV (`TIMESTAMP,ContextTokens,GeneratedTokens`, CRLF line ends,
 * timestamps with 7 fractional digits that never decrease), as `openAzureTrace` reads it.
 * `rows[i].arrivalUs` is relative to the first row, as the reader reports it.
 */
export function azureTraceArb(options: TraceArbOptions = {}): fc.Arbitrary<GeneratedTrace> {
  const row = fc.record({ input: fc.integer({ min: 1, max: 8000 }), output: fc.integer({ min: 0, max: 2000 }) });
  return fc
    .record({
      originUs: fc.integer({ min: 1_600_000_000, max: 1_800_000_000 }).map((s) => s * 1_000_000),
      gaps: gapsArb(options, 3_000_000),
      lengths: fc.infiniteStream(row),
    })
    .map(({ originUs, gaps, lengths }) => {
      const times = cumulative(gaps);
      const base = times[0];
      const rows = times.map((t) => {
        const { input, output } = lengths.next().value;
        return { arrivalUs: t - base, inputTokens: input, outputTokens: output, line: `${azureTimestamp(originUs + t)},${input},${output}` };
      });
      return {
        text: `TIMESTAMP,ContextTokens,GeneratedTokens\r\n${rows.map((r) => `${r.line}\r\n`).join('')}`,
        rows: rows.map(({ line: _line, ...r }) => r),
      };
    });
}

/**
 * A Mooncake JSONL trace (`timestamp` in ms, `input_length`, `output_length`, `hash_ids` of
 * 512-token blocks drawn from a small pool so rows share prefixes), as `openMooncakeTrace`
 * reads it. Timestamps never decrease.
 */
export function mooncakeTraceArb(options: TraceArbOptions = {}): fc.Arbitrary<GeneratedTrace> {
  const row = fc.record({
    input: fc.integer({ min: 1, max: 4096 }),
    output: fc.integer({ min: 0, max: 1000 }),
    ids: fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 8 }),
  });
  return fc.record({ gaps: gapsArb(options, 3000), lengths: fc.infiniteStream(row) }).map(({ gaps, lengths }) => {
    const rows = cumulative(gaps).map((ms) => {
      const { input, output, ids } = lengths.next().value;
      // A row cannot name more 512-token blocks than its prompt has.
      const hashIds = ids.slice(0, Math.ceil(input / 512));
      return { arrivalUs: ms * 1000, inputTokens: input, outputTokens: output, line: JSON.stringify({ timestamp: ms, input_length: input, output_length: output, hash_ids: hashIds }) };
    });
    return { text: rows.map((r) => `${r.line}\n`).join(''), rows: rows.map(({ line: _line, ...r }) => r) };
  });
}

/** One TraceV2 data row, by column name (every one of {@link TRACEV2_COLUMNS}). */
export type TraceV2Row = Readonly<Record<(typeof TRACEV2_COLUMNS)[number], string | number | boolean>>;

const csvField = (v: string | number | boolean) => {
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/**
 * A BLIS TraceV2 trace: the CSV half (header row naming all 27 columns, then rows whose
 * arrivals never decrease, with tenants, SLO classes, sessions, prefix groups including names
 * that need CSV quoting, and deadlines at or after arrival) and the YAML header text
 * (`trace_version: 2`, microseconds). Without prefix groups each row reads back at its own
 * `input_tokens`; in a group the reader adds the group's prefix (the first positive
 * `prefix_length` of the group), which `rows[i].inputTokens` accounts for.
 */
export function traceV2Arb(options: TraceArbOptions = {}): fc.Arbitrary<GeneratedTrace & { readonly header: string; readonly records: readonly TraceV2Row[] }> {
  const row = fc.record({
    client: fc.constantFrom('c1', 'c2'),
    tenant: fc.constantFrom('', 't1', 't2'),
    slo: fc.constantFrom('', 'critical', 'standard', 'batch'),
    session: fc.constantFrom('', '', 's1'),
    group: fc.constantFrom('', '', 'g1', 'with,comma "quoted"'),
    prefixLength: fc.constantFrom(0, 32, 100),
    input: fc.integer({ min: 1, max: 4000 }),
    output: fc.integer({ min: 0, max: 1000 }),
    streaming: fc.boolean(),
    timeout: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 10_000_000 })),
  });
  return fc.record({ gaps: gapsArb(options, 500_000), fields: fc.infiniteStream(row) }).map(({ gaps, fields }) => {
    const groupLength = new Map<string, number>();
    const rounds = new Map<string, number>();
    const records: TraceV2Row[] = [];
    const rows = cumulative(gaps).map((t, i) => {
      const f = fields.next().value;
      if (f.group !== '' && !groupLength.has(f.group) && f.prefixLength > 0) groupLength.set(f.group, f.prefixLength);
      const round = f.session === '' ? 0 : (rounds.get(f.session) ?? 0);
      if (f.session !== '') rounds.set(f.session, round + 1);
      records.push({
        request_id: `r${i}`, client_id: f.client, tenant_id: f.tenant, slo_class: f.slo, session_id: f.session, round_index: round,
        prefix_group: f.group, prefix_length: f.group === '' ? 0 : f.prefixLength, streaming: f.streaming, input_tokens: f.input,
        output_tokens: f.output, text_tokens: f.input, image_tokens: 0, audio_tokens: 0, video_tokens: 0, reason_ratio: 0,
        model: '', deadline_us: f.timeout > 0 ? t + f.timeout : 0, server_input_tokens: 0, arrival_time_us: t, send_time_us: t,
        first_chunk_time_us: 0, last_chunk_time_us: 0, num_chunks: 0, status: 'ok', error_message: '', finish_reason: '',
      });
      return { arrivalUs: t, group: f.group, input: f.input, outputTokens: f.output };
    });
    const text = [TRACEV2_COLUMNS.join(','), ...records.map((r) => TRACEV2_COLUMNS.map((c) => csvField(r[c])).join(','))].join('\n');
    return {
      text: `${text}\n`,
      header: 'trace_version: 2\ntime_unit: microseconds\nmode: generated\n',
      records,
      rows: rows.map((r) => ({ arrivalUs: r.arrivalUs, inputTokens: (r.group === '' ? 0 : (groupLength.get(r.group) ?? 0)) + r.input, outputTokens: r.outputTokens })),
    };
  });
}
