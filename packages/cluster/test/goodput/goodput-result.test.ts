import { makeRequestSpec } from '@blis/engine';
import { mergeGoodputTargets } from '@blis/workload/internal';
import { describe, expect, it } from 'vitest';
import { GoodputRecorder, goodputClass } from '../../src/goodput/goodput-recorder.js';
import { goodputResult } from '../../src/goodput/goodput-result.js';

// BLIS's goodput (cmd/goodput.go, sim/cluster/metrics.go SLOAttainmentMultiDim), worked by hand.

const spec = (id: string, sloClass: string, unnamed = false) => ({ ...makeRequestSpec({ index: Number(id), id, arrivalUs: 0, inputTokens: 10, outputTokens: 5, sloClass }), ...(unnamed ? { unnamedSloClass: true } : {}) });

describe('goodput', () => {
  it('a worked example: per-dimension shares over completions, good over arrivals, per simulated second', () => {
    const rec = new GoodputRecorder({ critical: { ttftMs: 100, itlMs: 20, e2eMs: 0 }, batch: { ttftMs: 0, itlMs: 0, e2eMs: 1000 } });
    // critical: 4 arrive, 3 complete (one dropped). TTFT 80/120/100 ms, ITL 10/10/25 ms.
    for (const id of ['0', '1', '2', '3']) rec.onArrival(spec(id, 'critical'));
    rec.onCompleted(spec('0', 'critical'), 80_000, 10_000, 900_000); // good
    rec.onCompleted(spec('1', 'critical'), 120_000, 10_000, 900_000); // TTFT over
    rec.onCompleted(spec('2', 'critical'), 100_000, 25_000, 900_000); // TTFT at the threshold (met), ITL over
    // batch: 2 arrive, 2 complete, E2E 999.999 and 1000.001 ms. standard: not gated, not counted.
    rec.onArrival(spec('4', 'batch'));
    rec.onArrival(spec('5', 'batch'));
    rec.onArrival(spec('6', 'standard'));
    rec.onCompleted(spec('4', 'batch'), 1, 1, 999_999);
    rec.onCompleted(spec('5', 'batch'), 1, 1, 1_000_001);
    rec.onCompleted(spec('6', 'standard'), 1, 1, 1);
    const g = goodputResult(rec, 4_000_000); // 4 simulated seconds
    // 1 good critical + 1 good batch = 2 over 4 + 2 arrivals.
    expect(g.slo_attainment).toBe(2 / 6);
    expect(g.goodput_rps).toBe(0.5);
    expect(g.per_class.critical).toEqual({
      count: 4,
      e2e_p99_ms: 900,
      goodput_rps: 0.25,
      // (10 + 10 + 25) / 3 ms
      itl_mean_ms: 15,
      slo_attainment: 0.25,
      slo_attainment_by_dim: { itl: 2 / 3, ttft: 2 / 3 },
      // p99 of [80, 100, 120]: rank 1.98, 100 + 0.98 × 20
      ttft_p99_ms: 100 + 0.98 * 20,
    });
    expect(g.per_class.batch.slo_attainment_by_dim).toEqual({ e2e: 0.5 });
    expect(g.per_class.batch.slo_attainment).toBe(0.5);
    expect(Object.keys(g.per_class)).toEqual(['batch', 'critical']);
    expect(g.targets.critical).toEqual({ ttft_ms: 100, itl_ms: 20, e2e_ms: 0 });
  });

  it('a class nobody sends is reported with count 0 and no latency figures', () => {
    const rec = new GoodputRecorder({ sheddable: { ttftMs: 5, itlMs: 0, e2eMs: 0 } });
    expect(goodputResult(rec, 1_000_000).per_class.sheddable).toEqual({ count: 0, goodput_rps: 0, slo_attainment: 0, slo_attainment_by_dim: { ttft: 0 } });
  });

  it('a request whose client named no class is `default`, whatever class it ran as', () => {
    expect(goodputClass(spec('0', 'standard', true))).toBe('default');
    expect(goodputClass(spec('0', ''))).toBe('default');
    expect(goodputClass(spec('0', 'standard'))).toBe('standard');
  });

  it("tiers merge as BLIS's mergeGoodputTargets: flags over header (positive only) over spec, per dimension", () => {
    const merged = mergeGoodputTargets(
      { critical: { ttftMs: 50 }, batch: { itlMs: 30 } },
      { critical: { ttftMs: 70, itlMs: 0, e2eMs: 900 } },
      { critical: { ttftMs: 100, itlMs: 20, e2eMs: 1000 }, standard: { ttftMs: 0, itlMs: 0, e2eMs: 0 } },
    );
    // standard gates nothing and is dropped; the header's 0 ITL does not clear the spec's 20.
    expect(merged).toEqual({ batch: { ttftMs: 0, itlMs: 30, e2eMs: 0 }, critical: { ttftMs: 50, itlMs: 20, e2eMs: 900 } });
    expect(mergeGoodputTargets(undefined, undefined, { x: { ttftMs: 0, itlMs: 0, e2eMs: 0 } })).toBeUndefined();
  });
});
