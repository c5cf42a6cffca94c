import { describe, expect, it } from 'vitest';
import { OVERLOAD_SCHEDULING_DELAY_P99_MS, overloadNote } from '../src/output/overload-note.js';

describe('overloadNote', () => {
  const r = (p99: number, completed = 10) => ({ scheduling_delay_p99_ms: p99, ttft_mean_ms: 2500, completed_requests: completed });

  it('stays quiet up to the threshold and speaks past it', () => {
    expect(overloadNote(r(OVERLOAD_SCHEDULING_DELAY_P99_MS), 1)).toBeUndefined();
    expect(overloadNote(r(OVERLOAD_SCHEDULING_DELAY_P99_MS + 0.001), 1)).toBe(
      'note: overloaded: requests waited up to 1.0 s (p99) for their first step, mean TTFT 2.5 s; the instance could not keep up with the arrivals (more --num-instances, or less load)',
    );
    expect(overloadNote(r(57_054.8), 3)).toMatch(/up to 57\.1 s \(p99\).*the 3 instances could not keep up/);
  });

  it('says nothing when nothing completed (no delays to judge) or the delay is not a number', () => {
    expect(overloadNote(r(5000, 0), 1)).toBeUndefined();
    expect(overloadNote(r(Number.NaN), 1)).toBeUndefined();
  });
});
