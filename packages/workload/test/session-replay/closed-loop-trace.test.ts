import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RequestSpec } from '@blis/engine';
import { describe, expect, it } from 'vitest';
import { promptBlockHashes } from '../../src/block-hashes.js';
import { ClosedLoopTraceSource, TRACEV2_COLUMNS } from '../../src/internal.js';

const dir = mkdtempSync(join(tmpdir(), 'blis-closed-loop-'));
let n = 0;

interface Row {
  id: number;
  session?: string;
  round?: number;
  group?: string;
  prefix?: number;
  input: number;
  output: number;
  at: number;
  think?: number;
}

/** A TraceV2 pair of `rows` (with a `think_time_us` column when any row has one) and `header` lines. */
function trace(rows: Row[], header = ''): { path: string; dataPath: string } {
  const base = join(dir, String(n++));
  const think = rows.some((r) => r.think !== undefined);
  const lines = rows.map((r) => {
    const c = [r.id, 'c', 't', 'standard', r.session ?? '', r.round ?? 0, r.group ?? '', r.prefix ?? 0, 'false', r.input, r.output, 0, 0, 0, 0, 0, '', 0, 0, r.at, r.at, 0, 0, 0, 'ok', '', ''];
    return (think ? [...c, r.think ?? 0] : c).join(',');
  });
  writeFileSync(`${base}.csv`, `${[...TRACEV2_COLUMNS, ...(think ? ['think_time_us'] : [])].join(',')}\n${lines.join('\n')}\n`);
  writeFileSync(`${base}.yaml`, `trace_version: 3\ntime_unit: microseconds\n${header}`);
  return { path: `${base}.yaml`, dataPath: `${base}.csv` };
}

/** Every request the source sends when each completes `serviceUs` after it arrives. */
function drain(src: ClosedLoopTraceSource, serviceUs: number, fate: (r: RequestSpec) => 'completed' | 'timed_out' = () => 'completed'): RequestSpec[] {
  const sent: RequestSpec[] = [];
  const inFlight: RequestSpec[] = [];
  for (;;) {
    const next = src.peekArrivalUs();
    inFlight.sort((a, b) => a.arrivalUs - b.arrivalUs);
    const done = inFlight[0];
    if (done !== undefined && done.arrivalUs + serviceUs <= next) {
      inFlight.shift();
      src.onRequestDone(done, done.arrivalUs + serviceUs, fate(done));
      continue;
    }
    if (next === Number.POSITIVE_INFINITY) return sent;
    const r = src.next()!;
    sent.push(r);
    inFlight.push(r);
  }
}

const SESSION: Row[] = [
  { id: 0, session: 's', round: 0, group: 'g', prefix: 32, input: 20, output: 5, at: 0 },
  { id: 1, input: 10, output: 3, at: 500 },
  { id: 2, session: 's', round: 1, group: 'g', prefix: 32, input: 8, output: 4, at: 3_000 },
  { id: 3, session: 's', round: 2, group: 'g', prefix: 32, input: 6, output: 2, at: 10_000 },
];

describe('ClosedLoopTraceSource', () => {
  it('sends round k+1 at round k\'s completion plus the recorded arrival gap; prompts are the prefix and the new turn', () => {
    const t = trace(SESSION);
    const src = new ClosedLoopTraceSource(t.path, { seed: 42, dataPath: t.dataPath });
    expect(src.sessions).toBe(1);
    const sent = drain(src, 1_000);
    // Round 0 at 0 completes at 1,000; the gaps are 3,000 and 7,000 µs.
    expect(sent.map((r) => [r.id, r.arrivalUs, r.inputTokens, r.outputTokens, r.roundIndex])).toEqual([
      ['0', 0, 52, 5, 0],
      ['1', 500, 10, 3, 0],
      ['session_s_round_1_1', 4_000, 40, 4, 1],
      ['session_s_round_2_2', 12_000, 38, 2, 2],
    ]);
    expect(sent.map((r) => r.index)).toEqual([0, 1, 2, 3]);
    expect(sent[2]).toMatchObject({ sessionId: 's', prefixGroup: 'g', prefixLength: 32, streaming: false, deadlineUs: 4_000 + 300_000_000 });
    // New content behind the group's shared prefix: the prefix's 2 blocks are the group's, the rest the request's own.
    const own = promptBlockHashes({ id: 'session_s_round_1_1', inputTokens: 40, prefixGroup: 'g', prefixLength: 32, sessionId: '' }, 16);
    expect(Array.from(sent[2].blockHashes)).toEqual(Array.from(own));
  });

  it('accumulate: each prompt is the previous prompt, its answer and the new turn, on the session\'s block stream', () => {
    const t = trace(SESSION, 'session_context_growth: accumulate\n');
    const sent = drain(new ClosedLoopTraceSource(t.path, { seed: 1, dataPath: t.dataPath, thinkTime: { type: 'constant', valueUs: 250 } }), 1_000);
    // 52 + 5 + 8 = 65, then 65 + 4 + 6 = 75; pauses of 250 µs after each completion.
    expect(sent.filter((r) => r.sessionId === 's').map((r) => [r.arrivalUs, r.inputTokens])).toEqual([
      [0, 52],
      [1_250, 65],
      [2_500, 75],
    ]);
    const r1 = sent.find((r) => r.roundIndex === 1)!;
    const r0 = sent[0];
    // Round 1's first 3 blocks (48 of round 0's 52 tokens) are round 0's.
    expect(Array.from(r1.blockHashes).slice(0, 3)).toEqual(Array.from(r0.blockHashes).slice(0, 3));
  });

  it('a recorded think_time_us wins over the arrival gaps; a round that times out ends its session', () => {
    const rows = SESSION.map((r) => (r.round === 1 ? { ...r, think: 700 } : r.round === 2 ? { ...r, think: 900 } : r));
    const t = trace(rows);
    const sent = drain(new ClosedLoopTraceSource(t.path, { seed: 1, dataPath: t.dataPath }), 100);
    expect(sent.filter((r) => r.sessionId === 's').map((r) => r.arrivalUs)).toEqual([0, 800, 1_800]);
    const cut = drain(new ClosedLoopTraceSource(t.path, { seed: 1, dataPath: t.dataPath }), 100, (r) => (r.roundIndex === 1 ? 'timed_out' : 'completed'));
    expect(cut.map((r) => r.roundIndex)).toEqual([0, 0, 1]);
  });

  it('a follow-up that would arrive after the horizon ends its session', () => {
    const t = trace(SESSION);
    const sent = drain(new ClosedLoopTraceSource(t.path, { seed: 1, dataPath: t.dataPath, horizonUs: 5_000 }), 1_000);
    expect(sent.map((r) => r.arrivalUs)).toEqual([0, 500, 4_000]);
  });

  it('rows outside sessions arrive as recorded; --max-requests keeps the first rows of the file', () => {
    const t = trace(SESSION);
    const src = new ClosedLoopTraceSource(t.path, { seed: 1, dataPath: t.dataPath, maxRequests: 2 });
    expect(drain(src, 1_000).map((r) => r.id)).toEqual(['0', '1']);
    const plain = trace([{ id: 0, input: 10, output: 1, at: 0 }, { id: 1, input: 10, output: 1, at: 9 }]);
    const none = new ClosedLoopTraceSource(plain.path, { seed: 1, dataPath: plain.dataPath });
    expect(none.sessions).toBe(0);
    expect(drain(none, 5).map((r) => r.arrivalUs)).toEqual([0, 9]);
  });

  it('lognormal think times come from each session\'s own generator: the same seed draws the same pauses', () => {
    const t = trace(SESSION);
    const dist = { type: 'lognormal' as const, mu: -6, sigma: 0.5, minUs: 0, maxUs: 0 };
    const a = drain(new ClosedLoopTraceSource(t.path, { seed: 7, dataPath: t.dataPath, thinkTime: dist }), 1_000).map((r) => r.arrivalUs);
    const b = drain(new ClosedLoopTraceSource(t.path, { seed: 7, dataPath: t.dataPath, thinkTime: dist }), 1_000).map((r) => r.arrivalUs);
    const c = drain(new ClosedLoopTraceSource(t.path, { seed: 8, dataPath: t.dataPath, thinkTime: dist }), 1_000).map((r) => r.arrivalUs);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });
});
