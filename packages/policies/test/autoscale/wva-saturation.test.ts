import { describe, expect, it } from 'vitest';
import { PolicyParamsError } from '../../src/index.js';
import { createWvaSaturationAutoscaler } from '../../src/internal.js';
import { context, holding } from './helpers.js';

// Every example: H100/TP1 replicas with 160,000 KV tokens, so supply = 160,000 x 0.8 = 128,000
// each; defaults up 0.8, down 0.4, avgIn 512.
const wva = createWvaSaturationAutoscaler();

describe('wva-saturation: AS-1 (scale up)', () => {
  const replicas = [
    { kvTokensInUse: 120_000, queueDepth: 20 },
    { kvTokensInUse: 100_000, queueDepth: 10 },
  ];

  it('scales up by ceil(required / per-replica supply)', () => {
    // D = (120,000 + 20 x 512) + (100,000 + 10 x 512) = 130,240 + 105,120 = 235,360
    // S = 2 x 128,000 = 256,000; utilization = 235,360 / 256,000 = 0.919375
    // required = 235,360 / 0.8 - 256,000 = 294,200 - 256,000 = 38,200
    // delta = ceil(38,200 / 128,000) = 1
    const d = wva.evaluate(context(replicas));
    expect(d.delta).toBe(1);
    expect(d.signals?.supply).toBe(256_000);
    expect(d.signals?.demand).toBe(235_360);
    expect(d.signals?.utilization).toBeCloseTo(0.919375, 12);
    expect(d.signals?.required).toBeCloseTo(38_200, 6);
    expect(d.signals?.spare).toBe(0);
    expect(d.reason).toBe(
      'supply 256000, demand 235360, pending 0: need 38200 more KV tokens: +1 H100/tp1',
    );
  });

  it('holds when a pending replica already covers the need', () => {
    // pending = 160,000 x 0.8 = 128,000; required = 294,200 - (256,000 + 128,000) = -89,800 < 0.
    // spare = 256,000 - 235,360 / 0.4 = 256,000 - 588,400 < 0: no scale-down either.
    const d = wva.evaluate(
      context(replicas, { pendingReplicas: 1, pendingKvCapacityTokens: 160_000 }),
    );
    expect(d.delta).toBe(0);
    expect(d.signals?.pending).toBe(128_000);
    expect(d.signals?.required).toBe(0);
    expect(d.signals?.spare).toBe(0);
    expect(d.reason).toBe('supply 256000, demand 235360, utilization 0.919: hold');
  });

  it('asks for several replicas when one is not enough', () => {
    // AS-1 with 300 queued on replica 1: D = (120,000 + 300 x 512) + 105,120 = 378,720;
    // required = 378,720 / 0.8 - 256,000 = 473,400 - 256,000 = 217,400;
    // ceil(217,400 / 128,000) = ceil(1.698...) = 2.
    const d = wva.evaluate(context([{ kvTokensInUse: 120_000, queueDepth: 300 }, replicas[1]!]));
    expect(d.signals?.required).toBeCloseTo(217_400, 6);
    expect(d.delta).toBe(2);
  });
});

describe('wva-saturation: AS-2 (scale down)', () => {
  // 4 replicas: S = 4 x 128,000 = 512,000.
  it('scales down by floor(spare / per-replica supply) when the N-1 check passes', () => {
    // D = 4 x 10,000 = 40,000; D / 0.4 = 100,000; spare = 512,000 - 100,000 = 412,000.
    // N-1: 512,000 - 128,000 = 384,000 > 100,000. floor(412,000 / 128,000) = floor(3.22) = 3.
    const d = wva.evaluate(context(holding(4, 10_000), { minReplicas: 1 }));
    expect(d.signals?.demand).toBe(40_000);
    expect(d.signals?.spare).toBe(412_000);
    expect(d.delta).toBe(-3);
    expect(d.reason).toBe('supply 512000, demand 40000: spare 412000 KV tokens: -3 H100/tp1');
  });

  it('never proposes going below minReplicas', () => {
    // Same as above, minReplicas 2: at most 4 - 2 = 2 may go.
    const d = wva.evaluate(context(holding(4, 10_000), { minReplicas: 2 }));
    expect(d.delta).toBe(-2);
    expect(d.reason).toBe(
      'supply 512000, demand 40000: spare 412000 KV tokens: -2 H100/tp1 (capped at min replicas 2)',
    );
    // At minReplicas already: hold.
    expect(wva.evaluate(context(holding(4, 10_000), { minReplicas: 4 })).delta).toBe(0);
  });

  it('holds when removing a replica would leave too little supply (N-1 check)', () => {
    // D = 4 x 47,500 = 190,000; D / 0.4 = 475,000; spare = 37,000 > 0, but
    // 512,000 - 128,000 = 384,000 is not > 475,000.
    const d = wva.evaluate(context(holding(4, 47_500)));
    expect(d.signals?.spare).toBe(0);
    expect(d.delta).toBe(0);
  });

  it('fixes BLIS scale-to-zero at idle: keeps minReplicas', () => {
    // D = 0: spare = 512,000; floor(512,000 / 128,000) = 4 = all of them (BLIS: -4).
    expect(wva.evaluate(context(holding(4, 0), { minReplicas: 1 })).delta).toBe(-3);
    expect(wva.evaluate(context(holding(4, 0), { minReplicas: 0 })).delta).toBe(-4);
  });

  it('never scales down a single replica (BLIS: needs two with capacity)', () => {
    const d = wva.evaluate(context(holding(1, 0), { minReplicas: 0 }));
    expect(d.delta).toBe(0);
    expect(d.signals?.spare).toBe(0);
  });
});

describe('wva-saturation: our additions', () => {
  it('scales from zero when requests wait and nothing is pending (BLIS did nothing)', () => {
    const d = wva.evaluate(context([], { waitingRequests: 3, minReplicas: 0 }));
    expect(d.delta).toBe(1);
    expect(d.reason).toBe('scale from zero: 3 requests waiting, no replica: +1');
    // Waiting demand is still reported: 3 x 512.
    expect(d.signals?.demand).toBe(1536);
  });

  it('holds with no routable replica while one is pending, or when nothing waits', () => {
    const pending = context([], {
      waitingRequests: 3,
      pendingReplicas: 1,
      pendingKvCapacityTokens: 160_000,
    });
    expect(wva.evaluate(pending).delta).toBe(0);
    expect(wva.evaluate(pending).reason).toBe('no routable replica, 1 pending: hold');
    expect(wva.evaluate(context([], { minReplicas: 0 })).delta).toBe(0);
  });

  it('counts requests waiting for a replica as demand', () => {
    // Two idle replicas, S = 256,000. Without waiting: D = 0, spare = 256,000,
    // floor(256,000 / 128,000) = 2, capped at 2 - 1 = 1: -1.
    expect(wva.evaluate(context(holding(2, 0))).delta).toBe(-1);
    // 500 waiting: D = 500 x 512 = 256,000; required = 256,000 / 0.8 - 256,000 = 64,000;
    // ceil(64,000 / 128,000) = 1.
    const d = wva.evaluate(context(holding(2, 0), { waitingRequests: 500 }));
    expect(d.signals?.demand).toBe(256_000);
    expect(d.signals?.required).toBeCloseTo(64_000, 6);
    expect(d.delta).toBe(1);
  });
});

describe('wva-saturation: variants', () => {
  it('scales up the cheapest variant, by its per-replica supply', () => {
    // A100 ($2/h, 100,000 tokens -> supply 80,000) and H100 ($4/h, 200,000 -> 160,000).
    // S = 240,000; D = 90,000 + (110,000 + 150 x 512) = 90,000 + 186,800 = 276,800.
    // required = 276,800 / 0.8 - 240,000 = 346,000 - 240,000 = 106,000.
    // Cheapest = A100: ceil(106,000 / 80,000) = 2 (by the H100 it would be 1).
    const d = wva.evaluate(
      context([
        { gpuType: 'H100', costPerHour: 4, totalKvCapacityTokens: 200_000, kvTokensInUse: 110_000, queueDepth: 150 },
        { gpuType: 'A100', costPerHour: 2, totalKvCapacityTokens: 100_000, kvTokensInUse: 90_000 },
      ]),
    );
    expect(d.signals?.required).toBeCloseTo(106_000, 6);
    expect(d.delta).toBe(2);
    expect(d.reason).toMatch(/: \+2 A100\/tp1$/);
  });

  it('scales down the most expensive variant, at most its replica count', () => {
    // A100 ($2/h, supply 80,000) x1, H100 ($4/h, supply 160,000) x2: S = 400,000.
    // D = 20,000; D / 0.4 = 50,000; spare = 350,000; N-1: 400,000 - 160,000 = 240,000 > 50,000.
    // Most expensive = H100: floor(350,000 / 160,000) = 2, clamp to [1, 2] = 2; cap 3 - 1 = 2.
    // (By the A100 it would be floor(350,000 / 80,000) = 4, clamped to its 1 replica.)
    const d = wva.evaluate(
      context([
        { gpuType: 'A100', costPerHour: 2, totalKvCapacityTokens: 100_000, kvTokensInUse: 20_000 },
        { gpuType: 'H100', costPerHour: 4, totalKvCapacityTokens: 200_000 },
        { gpuType: 'H100', costPerHour: 4, totalKvCapacityTokens: 200_000 },
      ]),
    );
    expect(d.signals?.spare).toBe(350_000);
    expect(d.delta).toBe(-2);
    expect(d.reason).toMatch(/: -2 H100\/tp1$/);
  });

  it('breaks cost ties by GPU type, then TP, in both directions (as BLIS)', () => {
    // Equal cost: A100/tp2 (supply 64,000 per replica, from 80,000 tokens) sorts before
    // H100/tp1 for scale-up and for scale-down alike.
    // Up: S = 64,000 + 128,000 = 192,000; D = 80,000 + 160,000 = 240,000 (both full);
    // required = 300,000 - 192,000 = 108,000; ceil(108,000 / 64,000) = 2.
    const up = wva.evaluate(
      context([
        { gpuType: 'H100', kvTokensInUse: 160_000 },
        { gpuType: 'A100', tp: 2, totalKvCapacityTokens: 80_000, kvTokensInUse: 80_000 },
      ]),
    );
    expect(up.delta).toBe(2);
    expect(up.reason).toMatch(/A100\/tp2$/);
    // Down, idle, min 0: spare = 192,000; victim A100/tp2: floor(192,000 / 64,000) = 3,
    // clamped to its 1 replica.
    const down = wva.evaluate(
      context([{ gpuType: 'H100' }, { gpuType: 'A100', tp: 2, totalKvCapacityTokens: 80_000 }], {
        minReplicas: 0,
      }),
    );
    expect(down.delta).toBe(-1);
    expect(down.reason).toMatch(/A100\/tp2$/);
  });

  it('leaves out replicas without KV capacity', () => {
    // The zero-capacity replica's 1,000 queued requests would be 512,000 tokens of demand.
    const d = wva.evaluate(
      context([{ kvTokensInUse: 120_000, queueDepth: 20 }, { totalKvCapacityTokens: 0, queueDepth: 1000 }]),
    );
    // S = 128,000, D = 130,240: required = 162,800 - 128,000 = 34,800 -> +1.
    expect(d.signals?.supply).toBe(128_000);
    expect(d.signals?.demand).toBe(130_240);
    expect(d.delta).toBe(1);
    // Only capacity-less replicas: nothing to size by, hold.
    const none = wva.evaluate(context([{ totalKvCapacityTokens: 0 }], { waitingRequests: 10 }));
    expect(none.delta).toBe(0);
    expect(none.reason).toMatch(/no replica reports KV capacity: hold$/);
  });
});

describe('wva-saturation: params', () => {
  it('takes 0 as the default, as BLIS', () => {
    const zero = createWvaSaturationAutoscaler({
      kv_cache_threshold: 0,
      scale_up_threshold: 0,
      scale_down_boundary: 0,
      avg_input_tokens: 0,
    });
    const ctx = context([
      { kvTokensInUse: 120_000, queueDepth: 20 },
      { kvTokensInUse: 100_000, queueDepth: 10 },
    ]);
    expect(zero.evaluate(ctx)).toEqual(wva.evaluate(ctx));
  });

  it('uses the given thresholds', () => {
    // k = 0.5: supply 80,000 each, S = 160,000. avgIn 1000: D = 2 x (40,000 + 10 x 1000) =
    // 100,000. up 0.5: required = 200,000 - 160,000 = 40,000; ceil(40,000 / 80,000) = 1.
    const custom = createWvaSaturationAutoscaler({
      kv_cache_threshold: 0.5,
      scale_up_threshold: 0.5,
      scale_down_boundary: 0.2,
      avg_input_tokens: 1000,
    });
    const d = custom.evaluate(context(holding(2, 40_000).map((r) => ({ ...r, queueDepth: 10 }))));
    expect(d.signals?.supply).toBe(160_000);
    expect(d.signals?.demand).toBe(100_000);
    expect(d.signals?.required).toBe(40_000);
    expect(d.delta).toBe(1);
  });

  it('rejects bad params naming the param', () => {
    const bad = (params: Record<string, unknown>, path: string) => {
      try {
        createWvaSaturationAutoscaler(params);
      } catch (err) {
        expect(err).toBeInstanceOf(PolicyParamsError);
        expect((err as PolicyParamsError).issues.map((i) => i.path.join('.'))).toEqual([path]);
        return (err as Error).message;
      }
      throw new Error('no error');
    };
    expect(bad({ scale_down_boundary: 0.9 }, 'scale_down_boundary')).toMatch(
      /params\.scale_down_boundary: scale_down_boundary \(0\.9\) must be < the effective scale_up_threshold \(0\.8\)/,
    );
    expect(bad({ scale_up_threshold: 0.3 }, 'scale_down_boundary')).toMatch(/\(0\.4\)/);
    expect(bad({ kv_cache_threshold: 1.5 }, 'kv_cache_threshold')).toMatch(/found 1\.5/);
    expect(bad({ avg_input_tokens: -1 }, 'avg_input_tokens')).toMatch(/found -1/);
    expect(bad({ avg_input_tokens: '512' }, 'avg_input_tokens')).toMatch(/found "512"/);
    expect(bad({ kvCacheThreshold: 0.5 }, 'kvCacheThreshold')).toMatch(/unknown field/);
  });
});
