import { MAX_CLOCK_US } from '@blis/engine';
import { describe, expect, it } from 'vitest';
import { HORIZON_MAX_US, SIMULATION_FLAGS } from '../src/flags/run-flags.js';

describe('--horizon limit', () => {
  // The flag tables spell the clock's range out instead of importing the engine (start-up).
  it("is the simulated clock's range", () => {
    expect(HORIZON_MAX_US).toBe(MAX_CLOCK_US);
    expect(SIMULATION_FLAGS.find((f) => f.name === 'horizon')?.max?.value).toBe(MAX_CLOCK_US);
  });
});
