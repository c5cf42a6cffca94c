import { allocBytes, closeSync, openSync, readSync, StringDecoder } from '#host-files';
import { TRACE_FORMAT_VERSION, type TraceRecord, type TraceRecordKind } from './records.js';

/** A trace line that is not a valid record; `where` is `file:line`. */
export class TraceParseError extends Error {
  readonly where: string;
  readonly expected: string;
  readonly found: string;
  constructor(where: string, expected: string, found: string) {
    super(`${where}: expected ${expected}, found ${found}`);
    this.name = 'TraceParseError';
    this.where = where;
    this.expected = expected;
    this.found = found;
  }
}

type FieldType = 'number' | 'string' | 'boolean' | 'array' | 'object' | 'number|null' | 'boolean|null';

/** The decision fields `route` and `prefill_routing` records share (RoutingDecisionFields). */
const ROUTING_DECISION_FIELDS: Record<string, FieldType> = {
  inst: 'number',
  reason: 'string',
  scored: 'string',
  scores: 'array',
  by: 'object',
  snap: 'array',
  regret: 'number|null',
};

/** Required fields of each record kind (optional ones are checked where they are read). */
const REQUIRED: Record<TraceRecordKind, Record<string, FieldType>> = {
  header: { version: 'number', level: 'string', k: 'number', slo_ttft_us: 'number', slo_e2e_us: 'number', tail_ratio: 'number', policies: 'object' },
  admit: { ts: 'number', id: 'string', tenant: 'string', slo: 'string', admit: 'boolean', reason: 'string', in_flight: 'number', rate: 'number|null', saturation: 'number|null' },
  priority: { ts: 'number', id: 'string', score: 'number|null' },
  route: { seq: 'number', ts: 'number', id: 'string', tenant: 'string', slo: 'string', in: 'number', blocks: 'number', prefix: 'string', ...ROUTING_DECISION_FIELDS },
  disaggregation: { ts: 'number', id: 'string', disaggregate: 'boolean', reason: 'string', decode_inst: 'number' },
  prefill_routing: { ts: 'number', id: 'string', ...ROUTING_DECISION_FIELDS, pool: 'array' },
  encode_routing: { ts: 'number', id: 'string', ...ROUTING_DECISION_FIELDS, pool: 'array' },
  kv_transfer: { ts: 'number', id: 'string', start_us: 'number', dur_us: 'number', blocks: 'number', prefill_inst: 'number', decode_inst: 'number' },
  outcome: { ts: 'number', id: 'string', status: 'string', slo: 'string', inst: 'number', blocks: 'number', hit_blocks: 'number', preemptions: 'number', target_us: 'number', slo_met: 'boolean|null' },
  queued: { ts: 'number', id: 'string', inst: 'number', prio: 'number|null' },
  scheduled: { ts: 'number', id: 'string', inst: 'number', prio: 'number|null', hit_blocks: 'number' },
  preempted: { ts: 'number', id: 'string', inst: 'number' },
  batch: { ts: 'number', inst: 'number', dt: 'number', prefill: 'number', prefill_tokens: 'number', decode: 'number' },
  scale: {
    ts: 'number',
    pool: 'string',
    policy: 'string',
    routable: 'number',
    pending: 'number',
    draining: 'number',
    avg_q: 'number|null',
    avg_kv: 'number|null',
    waiting: 'number',
    rate: 'number|null',
    signals: 'object',
    proposed: 'number|null',
    delta: 'number|null',
    outcome: 'string',
    reason: 'string',
  },
  scale_action: { ts: 'number', pool: 'string', before: 'number', after: 'number', ids: 'array', unplaced: 'number' },
  instance_state: { ts: 'number', inst: 'number', id: 'string', state: 'string' },
  anomaly: { ts: 'number', kind: 'string', inst: 'number', ids: 'array' },
  end: { ts: 'number' },
};

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

function matches(v: unknown, t: FieldType): boolean {
  const actual = typeOf(v);
  return t.split('|').includes(actual);
}

/** Parses and checks one line; `where` names it in errors (`trace.jsonl:12`). */
export function parseTraceLine(line: string, where: string): TraceRecord {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new TraceParseError(where, 'a JSON object', line.length > 60 ? `${line.slice(0, 60)}...` : line);
  }
  if (typeOf(value) !== 'object') throw new TraceParseError(where, 'a JSON object', typeOf(value));
  const rec = value as Record<string, unknown>;
  const kind = rec.t;
  if (typeof kind !== 'string' || !(kind in REQUIRED)) {
    throw new TraceParseError(`${where} t`, `one of ${Object.keys(REQUIRED).join(', ')}`, JSON.stringify(kind) ?? 'nothing');
  }
  const fields = REQUIRED[kind as TraceRecordKind];
  for (const f in fields) {
    if (!matches(rec[f], fields[f])) throw new TraceParseError(`${where} ${f}`, fields[f], typeOf(rec[f]));
  }
  if (kind === 'header' && rec.version !== TRACE_FORMAT_VERSION) {
    throw new TraceParseError(`${where} version`, String(TRACE_FORMAT_VERSION), String(rec.version));
  }
  return rec as unknown as TraceRecord;
}

/** Parses a whole JSONL text (blank lines skipped). `name` labels errors. */
export function parseTrace(text: string, name = 'trace'): TraceRecord[] {
  const out: TraceRecord[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    out.push(parseTraceLine(lines[i], `${name}:${i + 1}`));
  }
  return out;
}

/**
 * Reads a trace file record by record, in bounded chunks: a long trace can be analysed without
 * holding it in memory.
 */
export function* readTraceFile(path: string, chunkBytes = 1 << 16): Generator<TraceRecord> {
  const fd = openSync(path, 'r');
  try {
    const buf = allocBytes(chunkBytes);
    // The decoder holds back a multi-byte character split by a chunk boundary.
    const decoder = new StringDecoder('utf8');
    let rest = '';
    let lineNo = 0;
    for (;;) {
      const n = readSync(fd, buf, 0, chunkBytes, null);
      if (n === 0) break;
      const text = rest + decoder.write(buf.subarray(0, n));
      const lines = text.split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        lineNo++;
        if (line.trim() !== '') yield parseTraceLine(line, `${path}:${lineNo}`);
      }
    }
    rest += decoder.end();
    if (rest.trim() !== '') yield parseTraceLine(rest, `${path}:${lineNo + 1}`);
  } finally {
    closeSync(fd);
  }
}
