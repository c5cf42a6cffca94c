import { describe, expect, it } from 'vitest';
import { type InstanceSnapshot, createSaturationDetector } from '../../src/index.js';
import { createConcurrencyDetector, createUtilizationDetector } from '../../src/internal.js';

const snap = (queueDepth: number, kvUtilization: number, inFlightRequests: number) => ({ queueDepth, kvUtilization, inFlightRequests }) as unknown as InstanceSnapshot;

describe('saturation detectors', () => {
  it('utilization: the mean over instances of the larger of queue and KV pressure', () => {
    const d = createUtilizationDetector(5, 0.8);
    // max(10/5, 0.4/0.8) = 2 and max(0/5, 0.8/0.8) = 1: mean 1.5.
    expect(d.saturation([snap(10, 0.4, 0), snap(0, 0.8, 0)])).toBe(1.5);
    expect(d.saturation([snap(1, 0.08, 0)])).toBeCloseTo(0.2, 12);
  });

  it('concurrency: requests in flight over instances x max concurrency', () => {
    expect(createConcurrencyDetector(4).saturation([snap(0, 0, 3), snap(0, 0, 5)])).toBe(1);
    expect(createConcurrencyDetector(100).saturation([snap(50, 1, 10)])).toBe(0.1);
  });

  it('never: always 0, whatever the pool', () => {
    expect(createSaturationDetector('never').saturation([snap(1000, 1, 1000)])).toBe(0);
  });

  it('an empty pool reads as saturated (requests wait for an instance)', () => {
    expect(createSaturationDetector('utilization').saturation([])).toBe(1);
    expect(createSaturationDetector('concurrency').saturation([])).toBe(1);
  });

  it('refuses thresholds that are not positive and finite', () => {
    expect(() => createUtilizationDetector(0, 0.8)).toThrow(/queueDepthThreshold/);
    expect(() => createUtilizationDetector(5, Number.POSITIVE_INFINITY)).toThrow(/kvCacheUtilThreshold/);
    expect(() => createConcurrencyDetector(1.5)).toThrow(/maxConcurrency/);
  });
});
