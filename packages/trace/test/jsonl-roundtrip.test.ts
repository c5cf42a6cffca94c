import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatRecord } from '../src/json-line.js';
import { ANOMALY_KINDS, type TraceRecord } from '../src/records.js';
import { TraceParseError, parseTrace, parseTraceLine, readTraceFile } from '../src/trace-reader.js';
import { JsonlFileSink, TraceOutputError } from '../src/trace-sink.js';

const tmp = mkdtempSync(join(tmpdir(), 'blis-trace-'));

// Finite numbers without -0: what the recorder writes (it folds -0 into 0).
const num = fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => x + 0);
const int = fc.integer({ min: -1, max: 1_000_000 });
const text = fc.string({ unit: 'binary', maxLength: 12 });
const byNames = fc.uniqueArray(fc.string({ minLength: 1, maxLength: 8 }), { maxLength: 3 });

const snapshot = fc.record({ q: int, b: int, f: int, kv: num, free: int, pb: int, age: int });

/** The fields a routing decision has in both `route` and `prefill_routing` records, over `n` instances. */
const decisionFields = (n: number) => ({
  inst: fc.nat(),
  reason: text,
  scored: fc.constantFrom('policy' as const, 'load' as const),
  scores: fc.array(num, { minLength: n, maxLength: n }),
  by: byNames.chain((names) => fc.tuple(...names.map((k) => fc.array(num, { minLength: n, maxLength: n }).map((v) => [k, v] as const))).map((e) => Object.fromEntries(e))),
  snap: fc.array(snapshot, { minLength: n, maxLength: n }),
  regret: num,
  pool: fc.uniqueArray(fc.nat({ max: 64 }), { minLength: n, maxLength: n }),
  topk: fc.array(fc.record({ i: fc.nat(), s: num, by: fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), num) }), { maxLength: 3 }),
});

const routeArb = fc.integer({ min: 1, max: 5 }).chain((n) =>
  fc.record(
    {
      t: fc.constant('route' as const),
      seq: fc.nat(),
      ts: fc.nat(),
      id: text,
      tenant: text,
      slo: text,
      in: fc.nat(),
      blocks: fc.nat(),
      prefix: text,
      ...decisionFields(n),
      adapter: text,
      warm: fc.array(fc.integer({ min: 0, max: 1 }), { minLength: n, maxLength: n }),
    },
    { requiredKeys: ['t', 'seq', 'ts', 'id', 'tenant', 'slo', 'in', 'blocks', 'prefix', 'inst', 'reason', 'scored', 'scores', 'by', 'snap', 'regret'] },
  ),
);

const prefillRoutingArb = fc.integer({ min: 1, max: 5 }).chain((n) =>
  fc.record(
    { t: fc.constant('prefill_routing' as const), ts: fc.nat(), id: text, ...decisionFields(n) },
    { requiredKeys: ['t', 'ts', 'id', 'inst', 'reason', 'scored', 'scores', 'by', 'snap', 'regret', 'pool'] },
  ),
);

const encodeRoutingArb = fc.integer({ min: 1, max: 5 }).chain((n) =>
  fc.record(
    { t: fc.constant('encode_routing' as const), ts: fc.nat(), id: text, ...decisionFields(n) },
    { requiredKeys: ['t', 'ts', 'id', 'inst', 'reason', 'scored', 'scores', 'by', 'snap', 'regret', 'pool'] },
  ),
);

const recordArb: fc.Arbitrary<TraceRecord> = fc.oneof(
  fc.record({
    t: fc.constant('header' as const),
    version: fc.constant(1),
    level: fc.constantFrom('decisions' as const, 'full' as const),
    k: fc.nat(),
    slo_ttft_us: fc.nat(),
    slo_e2e_us: fc.nat(),
    tail_ratio: num,
    policies: fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), text),
  }),
  fc.record({ t: fc.constant('admit' as const), ts: fc.nat(), id: text, tenant: text, slo: text, admit: fc.boolean(), reason: text, in_flight: fc.nat(), rate: num, saturation: num }),
  fc.record({ t: fc.constant('priority' as const), ts: fc.nat(), id: text, score: num }),
  routeArb,
  prefillRoutingArb,
  encodeRoutingArb,
  fc.record({ t: fc.constant('disaggregation' as const), ts: fc.nat(), id: text, disaggregate: fc.boolean(), reason: text, decode_inst: fc.nat() }),
  fc.record({ t: fc.constant('kv_transfer' as const), ts: fc.nat(), id: text, start_us: fc.nat(), dur_us: fc.nat(), blocks: fc.nat(), prefill_inst: fc.nat(), decode_inst: fc.nat() }),
  fc.record(
    {
      t: fc.constant('outcome' as const),
      ts: fc.nat(),
      id: text,
      status: fc.constantFrom('completed' as const, 'rejected' as const, 'shed' as const, 'unservable' as const, 'timed_out' as const),
      slo: text,
      inst: int,
      ttft_us: fc.nat(),
      e2e_us: fc.nat(),
      out: fc.nat(),
      blocks: fc.nat(),
      hit_blocks: fc.nat(),
      preemptions: fc.nat(),
      target_us: fc.nat(),
      slo_met: fc.constantFrom(true, false, null),
      // A router's reason for refusing the request (RoutingDecision.reject).
      reason: text,
    },
    { requiredKeys: ['t', 'ts', 'id', 'status', 'slo', 'inst', 'blocks', 'hit_blocks', 'preemptions', 'target_us', 'slo_met'] },
  ),
  fc.record({ t: fc.constant('queued' as const), ts: fc.nat(), id: text, inst: fc.nat(), prio: num }),
  fc.record({ t: fc.constant('scheduled' as const), ts: fc.nat(), id: text, inst: fc.nat(), prio: num, hit_blocks: fc.nat() }),
  fc.record({ t: fc.constant('preempted' as const), ts: fc.nat(), id: text, inst: fc.nat() }),
  fc.record({ t: fc.constant('batch' as const), ts: fc.nat(), inst: fc.nat(), dt: fc.nat(), prefill: fc.nat(), prefill_tokens: fc.nat(), decode: fc.nat() }),
  fc.record({
    t: fc.constant('scale' as const),
    ts: fc.nat(),
    pool: fc.constantFrom('monolithic' as const, 'prefill' as const, 'decode' as const),
    policy: text,
    routable: fc.nat(),
    pending: fc.nat(),
    draining: fc.nat(),
    avg_q: num,
    avg_kv: num,
    waiting: fc.nat(),
    rate: num,
    signals: fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), num),
    proposed: fc.integer({ min: -8, max: 8 }),
    delta: fc.integer({ min: -8, max: 8 }),
    outcome: fc.constantFrom('hold' as const, 'stabilizing' as const, 'cooldown' as const, 'scheduled' as const),
    reason: text,
  }),
  fc.record({
    t: fc.constant('scale_action' as const),
    ts: fc.nat(),
    pool: fc.constantFrom('monolithic' as const, 'prefill' as const, 'decode' as const),
    before: fc.nat(),
    after: fc.nat(),
    ids: fc.array(text, { maxLength: 3 }),
    unplaced: fc.nat(),
  }),
  fc.record({ t: fc.constant('instance_state' as const), ts: fc.nat(), inst: fc.nat(), id: text, state: text }),
  fc.record(
    {
      t: fc.constant('anomaly' as const),
      ts: fc.nat(),
      kind: fc.constantFrom(...ANOMALY_KINDS),
      inst: int,
      ids: fc.array(text, { maxLength: 3 }),
      pool: text,
      slo: text,
      p50_us: fc.nat(),
      p99_us: fc.nat(),
      ratio: num,
    },
    { requiredKeys: ['t', 'ts', 'kind', 'inst', 'ids'] },
  ),
  fc.record({ t: fc.constant('end' as const), ts: fc.nat() }),
);

describe('JSON lines', () => {
  it('every record kind reads back equal, one line each', () => {
    fc.assert(
      fc.property(recordArb, (r) => {
        const line = formatRecord(r);
        expect(line.endsWith('\n')).toBe(true);
        expect(line.slice(0, -1)).not.toContain('\n');
        expect(parseTraceLine(line, 'x:1')).toEqual(r);
        // The hand-built line is the same JSON value the generic serializer would write.
        expect(JSON.parse(line)).toEqual(JSON.parse(JSON.stringify(r)));
      }),
    );
  });

  it('writes non-finite numbers as null', () => {
    const line = formatRecord({ t: 'priority', ts: 1, id: 'a', score: Number.POSITIVE_INFINITY });
    expect(line).toBe('{"t":"priority","ts":1,"id":"a","score":null}\n');
  });

  it('names the file, line and field of a bad line', () => {
    expect(() => parseTrace('{"t":"end","ts":1}\n{"t":"nope"}\n', 'x.jsonl')).toThrow(/x\.jsonl:2 t: expected one of header, admit/);
    expect(() => parseTrace('{"t":"priority","ts":"soon","id":"a","score":1}', 'x.jsonl')).toThrow(TraceParseError);
    expect(() => parseTrace('{"t":"priority","ts":"soon","id":"a","score":1}', 'x.jsonl')).toThrow(/x\.jsonl:1 ts: expected number, found string/);
    expect(() => parseTrace('not json', 'x.jsonl')).toThrow(/x\.jsonl:1: expected a JSON object/);
    // P/D records: a prefill routing names its pool, a transfer's times are numbers.
    expect(() => parseTrace('{"t":"prefill_routing","ts":1,"id":"a","inst":0,"reason":"","scored":"load","scores":[0],"by":{},"snap":[],"regret":0}', 'x.jsonl')).toThrow(
      /x\.jsonl:1 pool: expected array, found undefined/,
    );
    expect(() => parseTrace('{"t":"kv_transfer","ts":1,"id":"a","start_us":0,"dur_us":"1ms","blocks":1,"prefill_inst":0,"decode_inst":1}', 'x.jsonl')).toThrow(
      /x\.jsonl:1 dur_us: expected number, found string/,
    );
    // Autoscaling records: an evaluation's signals are an object, an action names its replicas.
    expect(() =>
      parseTrace(
        '{"t":"scale","ts":1,"pool":"decode","policy":"p","routable":1,"pending":0,"draining":0,"avg_q":0,"avg_kv":0,"waiting":0,"rate":0,"signals":[],"proposed":0,"delta":0,"outcome":"hold","reason":""}',
        'x.jsonl',
      ),
    ).toThrow(/x\.jsonl:1 signals: expected object, found array/);
    expect(() => parseTrace('{"t":"scale_action","ts":1,"pool":"decode","before":1,"after":2,"unplaced":0}', 'x.jsonl')).toThrow(/x\.jsonl:1 ids: expected array, found undefined/);
    expect(() => parseTrace('{"t":"instance_state","ts":1,"inst":"3","id":"i3","state":"active"}', 'x.jsonl')).toThrow(/x\.jsonl:1 inst: expected number, found string/);
    expect(() => parseTrace('{"t":"header","version":2,"level":"full","k":0,"slo_ttft_us":0,"slo_e2e_us":0,"tail_ratio":5,"policies":{}}', 'x.jsonl')).toThrow(
      /version: expected 1, found 2/,
    );
  });
});

describe('file sink and reader', () => {
  it('stream many records through a small buffer and read them back in small chunks', () => {
    const path = join(tmp, 'many.jsonl');
    // A 100-character buffer forces a write every line or two; multi-byte text straddles chunks.
    const sink = new JsonlFileSink(path, 100);
    const records: TraceRecord[] = [];
    for (let i = 0; i < 500; i++) {
      const r: TraceRecord = { t: 'admit', ts: i, id: `r${i}-é漢🙂`, tenant: 't', slo: 'critical', admit: i % 3 !== 0, reason: 'ok', in_flight: i, rate: i / 7, saturation: 0.5 };
      records.push(r);
      sink.write(formatRecord(r));
    }
    sink.close();
    sink.close();
    expect([...readTraceFile(path, 7)]).toEqual(records);
    expect(parseTrace(readFileSync(path, 'utf8'))).toEqual(records);
  });

  it('reports an unwritable destination', () => {
    expect(() => new JsonlFileSink(join(tmp, 'no-such-dir', 'x.jsonl'))).toThrow(TraceOutputError);
  });
});
