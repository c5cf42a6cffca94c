import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { sleepUntil } from '../src/recorder/dispatch.js';

// A closed-loop user's think time is measured on the µs clock the trace records; a plain
// setTimeout can fire up to a millisecond before that clock reaches the deadline (CI saw a
// 150 ms pause come out as 149.903 ms). sleepUntil never returns before the deadline.

const nowUs = () => performance.now() * 1000;

describe('sleepUntil', () => {
  it('never returns before the µs clock reaches the deadline, for pauses above and below 1 ms', async () => {
    for (const pauseUs of [150, 700, 999, 1000, 1500, 2300, 5000, 12_345]) {
      for (let k = 0; k < 5; k++) {
        const at = nowUs() + pauseUs;
        await sleepUntil(at, nowUs);
        expect(nowUs()).toBeGreaterThanOrEqual(at);
      }
    }
  });

  it('returns at once when the deadline has passed or the signal is aborted', async () => {
    const t0 = nowUs();
    await sleepUntil(t0 - 1, nowUs);
    const ac = new AbortController();
    ac.abort();
    await sleepUntil(nowUs() + 10_000_000, nowUs, ac.signal);
    expect(nowUs() - t0).toBeLessThan(1_000_000);
  });
});
