import { describe, expect, it } from 'vitest';
import { makeRequestSpec } from '../src/index.js';
import { blackbox, drive, instanceConfig, promptHashes } from './drive.js';

// Issue #13, rule 2, at the engine: a waiting request that keeps failing admission must not keep
// its cached prefix fresh. Every number below is derived in the comments.

describe('a request stuck at the head of the queue under KV pressure', () => {
  it("lets its cached prefix blocks age out and be evicted, as vLLM and BLIS do", () => {
    // 10 blocks of 4 tokens; alpha = 0, beta = [1000, 1, 10].
    // Step 1 (t=0) admits A (8 tokens: group 0, blocks 0-1), B (8 tokens, own: blocks 2-3) and
    //   C (4 tokens: block 4). A and B have 1 output token: done at the end of step 1, freed
    //   last block first, A then B: free order [5, 6, 7, 8, 9, 1, 0, 3, 2].
    // C decodes 27 tokens (step k + 1 stores token 4 + k): it takes a block at tokens 5, 9, 13,
    //   17, 21, 25 and 29, from the head of the free order: 5, 6, 7, 8, 9, 1, 0. So A's prefix
    //   is evicted at k = 21 (block 1) and k = 25 (block 0).
    // D (A's 2 blocks + 20 own tokens: 7 blocks) arrives at 9,000 and first tries at step 10
    //   (k = 9, C holds 4 blocks, 6 free): 2 cached-but-free + 5 new = 7 > 6, and it keeps
    //   failing until C completes. Its failures must leave A's blocks where they are in the
    //   LRU order. (The old claim-and-roll-back moved them to the tail at every attempt: C then
    //   took B's blocks 3 and 2 instead, and D found both of A's blocks still cached.)
    const latency = blackbox([0, 0, 0], [1000, 1, 10]);
    const specs = [
      makeRequestSpec({ index: 0, id: 'A', arrivalUs: 0, inputTokens: 8, outputTokens: 1, blockHashes: promptHashes(8, 4, 2, 0, 0) }),
      makeRequestSpec({ index: 1, id: 'B', arrivalUs: 0, inputTokens: 8, outputTokens: 1, blockHashes: promptHashes(8, 4, 0, 0, 1) }),
      makeRequestSpec({ index: 2, id: 'C', arrivalUs: 0, inputTokens: 4, outputTokens: 28, blockHashes: promptHashes(4, 4, 0, 0, 2) }),
      makeRequestSpec({ index: 3, id: 'D', arrivalUs: 9_000, inputTokens: 28, outputTokens: 1, blockHashes: promptHashes(28, 4, 2, 0, 3) }),
    ];
    const { log, steps, instance } = drive(instanceConfig(latency, { totalKVBlocks: 10, blockSizeTokens: 4 }), specs);
    // Step 1: 1000 + 20 = 1020; then C alone decodes, 1010 per step: step n starts at
    // 1020 + (n - 2) × 1010. Step 10 (first attempt by D) starts at 9,100.
    expect(steps[9].start).toBe(1020 + 8 * 1010);
    expect(steps[9].freeBlocks).toBe(6);
    // C's 27th decode is step 28; D is admitted in step 29, with no cache hit.
    const scheduled = log.filter((e) => e.kind === 'scheduled');
    expect(scheduled.map((e) => [e.req, e.t, e.hits])).toEqual([
      [0, 0, 0],
      [1, 0, 0],
      [2, 0, 0],
      [3, 1020 + 27 * 1010, 0],
    ]);
    expect(instance.metrics.preemptions).toBe(0);
    expect(instance.metrics.completed).toBe(4);
  });
});
