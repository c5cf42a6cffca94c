import { createRequestSource, parseWorkloadSpec } from '@blis/workload';
import { describe, expect, it } from 'vitest';
import { CHAT_TWO_STAGES, closedLoop, specOf } from './ip-helpers.js';

// The golden experiments' two-stage chat section with seed 42 (BLIS's trained-physics experiments
// 17, 60, 62 and 65, and their roofline twins), run as a closed loop whose rounds each take 1 ms.
//
// The counts are BLIS's: its golden data gives 5100 completed requests and 2,789,700 input
// tokens for this workload, and every round is 100 + 447 tokens in, 248 out.
//
// The first arrival time and its client are pinned from our own output, not from BLIS: no Go
// toolchain here could print BLIS's. They are a tripwire for an unintended change of the draws
// (seed derivation, draw order, the exponential sampler), cross-checked by
// packages/cli/test/golden/blis-golden-experiments.test.ts, which reproduces BLIS's own TTFT
// and E2E figures for this workload to 1e-9 and would fail if the arrivals moved. If that test
// passes and this pin fails, re-pin from the new output with a note of why it moved.

const run = (extra: Record<string, unknown> = {}) => closedLoop(createRequestSource(parseWorkloadSpec(specOf(CHAT_TWO_STAGES, 42, extra))), 1000);

describe('golden pins: two-stage chat, seed 42', () => {
  const reqs = run();

  it('sends 1500 + 3600 = 5100 requests over the whole closed loop', () => {
    // Stage 0: floor(2.5 × 600) = 1500 rounds; stage 1: floor(6 × 600) = 3600. Every session
    // starts inside its window, and without a horizon every round is sent.
    expect(reqs).toHaveLength(5100);
    expect(reqs.filter((r) => r.clientId.startsWith('stage-0-'))).toHaveLength(1500);
    expect(reqs.filter((r) => r.clientId.startsWith('stage-1-'))).toHaveLength(3600);
    // 90 sessions, all started.
    expect(reqs.filter((r) => r.roundIndex === 0)).toHaveLength(90);
  });

  it('sends 5100 × (100 + 447) = 2,789,700 input and 5100 × 248 = 1,264,800 output tokens', () => {
    expect(reqs.reduce((a, r) => a + r.inputTokens, 0)).toBe(2_789_700);
    expect(reqs.reduce((a, r) => a + r.outputTokens, 0)).toBe(1_264_800);
  });

  it('starts with request_0 of stage-0-prompt-5-user-3 at 1,311,191 µs (pinned from our output)', () => {
    expect([reqs[0].id, reqs[0].clientId, reqs[0].arrivalUs]).toEqual(['request_0', 'stage-0-prompt-5-user-3', 1_311_191]);
  });

  it('is the same with the golden spec\'s num_requests: 5100 (the cap applies to the first arrivals and does not bite here)', () => {
    const capped = run({ num_requests: 5100 });
    expect(capped.map((r) => [r.id, r.arrivalUs])).toEqual(reqs.map((r) => [r.id, r.arrivalUs]));
  });
});
