import { describe, expect, it } from 'vitest';
import { diurnalShare, diurnalWindows, drainWindows, spikeWindow } from '../../src/cohorts/cohort-windows.js';

const HOUR = 3_600_000_000;

describe('diurnal windows (BLIS diurnalWindows)', () => {
  it('the share of an hour: 1 at the peak, 1/R twelve hours away, halfway between at ±6 h', () => {
    const d = { peak_hour: 12, peak_to_trough_ratio: 4 };
    expect(diurnalShare(d, 12)).toBe(1);
    // (1 + cos(−π)) / 2 × (1 − 1/4) + 1/4 = 0.25
    expect(diurnalShare(d, 0)).toBeCloseTo(0.25, 15);
    // cos(±π/2) = 0: 0.5 × 0.75 + 0.25 = 0.625
    expect(diurnalShare(d, 6)).toBeCloseTo(0.625, 15);
    expect(diurnalShare(d, 18)).toBeCloseTo(0.625, 15);
    // A ratio of 1 is flat.
    expect(diurnalShare({ peak_hour: 3, peak_to_trough_ratio: 1 }, 15)).toBe(1);
  });

  it('24 windows, each from its hour start for the share of the hour (truncated to µs)', () => {
    const w = diurnalWindows({ peak_hour: 12, peak_to_trough_ratio: 4 });
    expect(w).toHaveLength(24);
    expect(w[12]).toEqual({ start_us: 12 * HOUR, end_us: 13 * HOUR });
    expect(w[0]).toEqual({ start_us: 0, end_us: 900_000_000 });
    expect(w[6]).toEqual({ start_us: 6 * HOUR, end_us: 6 * HOUR + 2_250_000_000 });
    // The fixture's office cohort: peak 12, ratio 600: hour 0 is active for 3.6e9 / 600 = 6 s.
    expect(diurnalWindows({ peak_hour: 12, peak_to_trough_ratio: 600 })[0]).toEqual({ start_us: 0, end_us: 6_000_000 });
  });
});

describe('spike and drain windows', () => {
  it("a spike is one window carrying the cohort's trace_rate split among its members", () => {
    expect(spikeWindow({ start_time_us: 3_000_000, duration_us: 4_000_000, trace_rate: 30 }, 4)).toEqual({ start_us: 3_000_000, end_us: 7_000_000, trace_rate: 7.5 });
    expect(spikeWindow({ start_time_us: 0, duration_us: 10 }, 3)).toEqual({ start_us: 0, end_us: 10 });
  });

  it('a drain is full rate until its start, then 10 segments active for 10/10, 9/10, ..., 1/10 of their length', () => {
    const w = drainWindows({ start_time_us: 4_000_000, ramp_duration_us: 8_000_000 });
    expect(w).toHaveLength(11);
    expect(w[0]).toEqual({ start_us: 0, end_us: 4_000_000 });
    expect(w[1]).toEqual({ start_us: 4_000_000, end_us: 4_800_000 });
    expect(w[2]).toEqual({ start_us: 4_800_000, end_us: 4_800_000 + 720_000 });
    expect(w[10]).toEqual({ start_us: 4_000_000 + 9 * 800_000, end_us: 4_000_000 + 9 * 800_000 + 80_000 });
    // Starting at 0: no full-rate window; segments of at least 1 µs.
    const tiny = drainWindows({ start_time_us: 0, ramp_duration_us: 5 });
    expect(tiny).toHaveLength(10);
    expect(tiny.every((x) => x.end_us - x.start_us === 1)).toBe(true);
  });
});
