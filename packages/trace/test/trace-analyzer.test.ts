import { describe, expect, it } from 'vitest';
import type { OutcomeRecord, RoutingRecord, SnapshotEntry, TraceRecord } from '../src/records.js';
import { estimateTokens, summarizeTrace } from '../src/summary.js';
import { analyzeTrace } from '../src/trace-analyzer.js';

const snap = (q: number, pb: number): SnapshotEntry => ({ q, b: 0, f: 0, kv: 0.25, free: 100, pb, age: 0 });

function route(seq: number, id: string, inst: number, scores: number[], pbs: number[], blocks = 10): RoutingRecord {
  const best = Math.max(...scores);
  return {
    t: 'route',
    seq,
    ts: 1000 * seq,
    id,
    tenant: '',
    slo: 'critical',
    in: 16 * blocks,
    blocks,
    prefix: 'abcd0123',
    inst,
    reason: 'test',
    scored: 'load',
    scores,
    by: {},
    snap: scores.map((s, i) => snap(-s, pbs[i])),
    regret: best - scores[inst],
  };
}

function done(id: string, inst: number, ttft: number, hit: number, met: boolean | null, blocks = 10): OutcomeRecord {
  return { t: 'outcome', ts: 50_000, id, status: 'completed', slo: 'critical', inst, ttft_us: ttft, e2e_us: ttft + 1000, out: 10, blocks, hit_blocks: hit, preemptions: 0, target_us: 20_000, slo_met: met };
}

const header: TraceRecord = { t: 'header', version: 1, level: 'decisions', k: 2, slo_ttft_us: 20_000, slo_e2e_us: 0, tail_ratio: 5, policies: { routing: 'round-robin' } };

describe('trace analyzer', () => {
  // r0: best choice, all 10 blocks hit. r1: regret 2, instance 0 held 8 blocks but r1 went to
  // instance 1 (held 0) and hit 0: 8 of its 10 missed blocks were avoidable; SLO missed.
  // r2: regret 0 but instance 1 held 4 vs 2 on the chosen one; hit 2; SLO met.
  const records: TraceRecord[] = [
    header,
    route(0, 'r0', 0, [0, -1], [10, 0]),
    route(1, 'r1', 1, [0, -2], [8, 0]),
    route(2, 'r2', 0, [0, -3], [2, 4]),
    done('r0', 0, 10_000, 10, true),
    done('r1', 1, 30_000, 0, false),
    done('r2', 0, 15_000, 2, true),
    { t: 'anomaly', ts: 40_000, kind: 'hol_blocking', inst: 1, ids: ['r1', 'r0'] },
    { t: 'end', ts: 100_000 },
  ];
  const a = analyzeTrace(records);

  it('aggregates decisions and outcomes as computed by hand', () => {
    expect(a.decisions).toBe(3);
    expect(a.regretPositive).toBe(1);
    expect(a.regretSum).toBe(2);
    expect(a.routedAway).toBe(2);
    expect(a.routedTo).toEqual([2, 1]);
    expect(a.promptBlocks).toBe(30);
    expect(a.hitBlocks).toBe(12);
    // r1: min(8, 10) - 0 = 8; r2: min(4, 10) - 2 = 2.
    expect(a.awayMissBlocks).toBe(10);
    expect(a.sloMisses).toBe(1);
    expect(a.sloMissesAfterRegret).toBe(1);
    expect(a.sloMissesAfterAway).toBe(1);
    expect(a.ttftPercentiles()).toEqual({ p50: 15_000, p99: 30_000, n: 3 });
    expect(a.anomalies.get('hol_blocking')!.count).toBe(1);
    expect(a.unresolved).toBe(0);
  });

  it('says so in the summary, with those numbers', () => {
    const s = summarizeTrace(a);
    expect(s).toContain('Throughput: 300.0 output tokens/s, 30.0 completed requests/s.');
    expect(s).toContain('TTFT p50 15.0 ms, p99 30.0 ms; E2E p50 16.0 ms, p99 31.0 ms');
    expect(s).toContain('Class critical: 3 completed, TTFT p50 15.0 ms, p99 30.0 ms; SLO met by 2 of 3 (66.7%), missed by 1.');
    expect(s).toContain('Prefix cache: 12 of 30 prompt blocks hit (40.0%).');
    expect(s).toContain('2 of 3 decisions (66.7%) sent the request away');
    expect(s).toContain('10 of 18 missed prompt blocks (55.6%) were cached on another instance');
    expect(s).toContain('1 of 3 decisions (33.3%) did not pick the best-scored instance; mean regret 0.667, max 2.000.');
    expect(s).toContain('e.g. r1 completed while r0 waited on instance 1 at t=40.0 ms.');
    expect(s).toContain('1. t=1.0 ms | routed r1 (critical, 160 tokens, prefix 0xabcd0123) -> instance 1 (test)');
    expect(s).toContain('Result: TTFT 30.0 ms, E2E 31.0 ms, 0 of 10 prompt blocks hit, 0 preemptions, SLO missed.');
    expect(s).toContain('55.6% of missed prompt blocks were cached elsewhere');
  });

  it('has nothing to flag in a clean trace', () => {
    const clean = analyzeTrace([header, route(0, 'r0', 0, [0, -1], [10, 0]), done('r0', 0, 10_000, 10, true), { t: 'end', ts: 100_000 }]);
    const s = summarizeTrace(clean);
    expect(s).toContain('## Key issues (0 detected)');
    expect(s).toContain('- No issue stood out');
    expect(estimateTokens(s)).toBeLessThanOrEqual(1000);
  });

  it('estimates tokens as characters / 4, rounded up', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
  });
});
