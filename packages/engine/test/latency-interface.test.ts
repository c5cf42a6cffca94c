import type { LatencyModel, StepBatch } from '@blis/latency';
import { describe, expect, it } from 'vitest';
import { makeRequestSpec } from '../src/index.js';
import { drive, instanceConfig } from './drive.js';

// What the engine hands the latency model and takes back beyond the step time: each prefilling
// request's whole prompt length, and a completion overhead that lengthens E2E only.

/** Step = 1000 µs flat; queueing 100; 5 µs per output token; 700 µs after the last token. */
function model(seen: number[][]): LatencyModel {
  return {
    kind: 'test',
    stepTime(b: StepBatch) {
      seen.push(Array.from(b.prefillInputTokens.subarray(0, b.prefillCount)));
      return 1000;
    },
    queueingTime: () => 100,
    outputTokenTime: () => 5,
    postDecodeFixedOverhead: () => 700,
  };
}

describe('the step batch', () => {
  it('carries the prompt length of every prefilling request, chunk after chunk', () => {
    const seen: number[][] = [];
    // A 5,000-token prompt under a 2,048-token budget: chunks of 2048, 2048, 904, each step
    // reporting the whole 5,000; a 10-token prompt admitted beside the last chunk.
    const config = instanceConfig(model(seen), { maxNumBatchedTokens: 2048 });
    drive(config, [makeRequestSpec({ index: 0, arrivalUs: 0, inputTokens: 5000, outputTokens: 1 }), makeRequestSpec({ index: 1, arrivalUs: 1500, inputTokens: 10, outputTokens: 1 })]);
    expect(seen).toEqual([[5000], [5000], [5000, 10]]);
  });
});

describe('the post-decode overhead', () => {
  it('adds once to E2E, not to TTFT, ITL or the clock', () => {
    // queued at 100; prefill 100-1100, TTFT 1100 + 5 = 1105; two decode steps, ITL 1005 each;
    // E2E = 1105 + 2·1005 + 700 = 3815, while the request leaves the instance at 3100.
    const { outcomes } = drive(instanceConfig(model([])), [makeRequestSpec({ index: 0, arrivalUs: 0, inputTokens: 10, outputTokens: 3 })]);
    const o = outcomes.get(0)!;
    expect(o.ttft).toBe(1105);
    expect(o.itlMean).toBe(1005);
    expect(o.e2e).toBe(3815);
    expect(o.completedAt).toBe(3100);
  });

  it('is not added for a request with no output tokens', () => {
    const { outcomes } = drive(instanceConfig(model([])), [makeRequestSpec({ index: 0, arrivalUs: 0, inputTokens: 10, outputTokens: 0 })]);
    expect(outcomes.get(0)!.e2e).toBe(1105);
  });
});
