import { describe, expect, it } from 'vitest';
import type { LoraSettings } from '../../src/index.js';
import { AdapterCost } from '../../src/internal.js';

// Hand-computed examples of the three costs (BLIS's formulas, defaults.yaml's coefficients).

const DEFAULT_TIERS = [
  { rank: 8, k6: 0.02, k7: 1 },
  { rank: 16, k6: 0.035, k7: 1 },
  { rank: 32, k6: 0.06, k7: 1 },
];

function settings(over: Partial<LoraSettings> = {}): LoraSettings {
  return {
    adapters: [
      { id: 'a', rank: 8 },
      { id: 'b', rank: 16 },
      { id: 'c', rank: 32 },
    ],
    capacity: 4,
    loadBaseLatencyUs: 1500,
    loadBandwidthBytesUs: 2e6,
    footprintBytesPerRank: 2e6,
    stepOverheadTiers: DEFAULT_TIERS,
    ...over,
  };
}

describe('cold load latency', () => {
  it('is base + ceil(rank × footprint per rank / bandwidth)', () => {
    const c = new AdapterCost(settings());
    // rank 8: 1500 + ceil(16e6 / 2e6) = 1500 + 8
    expect(c.loadTicks(8)).toBe(1508);
    // rank 32: 1500 + ceil(64e6 / 2e6) = 1532
    expect(c.loadTicks(32)).toBe(1532);
    const slow = new AdapterCost(settings({ loadBaseLatencyUs: 20_000, loadBandwidthBytesUs: 20_000 }));
    // rank 16: 20000 + ceil(32e6 / 2e4) = 20000 + 1600
    expect(slow.loadTicks(16)).toBe(21_600);
  });

  it('rounds a fractional load up, and a free one to a single µs', () => {
    // 0.5 + ceil(2e6 × 3 / 7e6) = 0.5 + 1 = 1.5 µs -> 2
    expect(new AdapterCost(settings({ loadBaseLatencyUs: 0.5, loadBandwidthBytesUs: 7e6 })).loadTicks(3)).toBe(2);
    expect(new AdapterCost(settings({ loadBaseLatencyUs: 0, footprintBytesPerRank: 1e-9 })).loadTicks(1)).toBe(1);
  });
});

describe('per-step compute factor', () => {
  const c = new AdapterCost(settings());
  it('is 1 + k6/k7 × distinct adapters, by the tier of the largest rank', () => {
    expect(c.stepFactor(0, 0)).toBe(1);
    expect(c.stepFactor(1, 8)).toBe(1.02);
    // two adapters, largest rank 16: 1 + 0.035 × 2
    expect(c.stepFactor(2, 16)).toBe(1 + 0.035 * 2);
    expect(c.scaleStep(10_000, 2, 16)).toBe(10_700);
    // three adapters with a rank-32 one: 1 + 0.06 × 3 = 1.18; 12345 × 1.18 = 14567.1 -> 14567
    expect(c.scaleStep(12_345, 3, 32)).toBe(14_567);
  });

  it('takes the nearest calibrated tier, the lower one on a tie, and clamps outside', () => {
    expect(c.stepFactor(1, 12)).toBe(1.02); // 8 and 16 are 4 away: 8
    expect(c.stepFactor(1, 13)).toBe(1.035);
    expect(c.stepFactor(1, 4)).toBe(1.02);
    expect(c.stepFactor(1, 64)).toBe(1.06);
  });

  it('is 1 without tiers, and never shrinks a step', () => {
    const none = new AdapterCost(settings({ stepOverheadTiers: [] }));
    expect(none.scaleStep(777, 3, 32)).toBe(777);
    const zero = new AdapterCost(settings({ stepOverheadTiers: [{ rank: 8, k6: 0, k7: 1 }] }));
    expect(zero.scaleStep(777, 3, 32)).toBe(777);
  });
});

describe('HBM reservation', () => {
  it('is capacity × footprint per rank × the largest declared rank', () => {
    // 4 slots × 2e6 × 32
    expect(new AdapterCost(settings()).reservedBytes()).toBe(256e6);
    expect(new AdapterCost(settings({ capacity: 8 })).reservedBytes()).toBe(512e6);
  });
});
