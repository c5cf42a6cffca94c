import { describe, expect, it } from 'vitest';
import { makeRequestSpec } from '../src/index.js';
import { blackbox, drive, instanceConfig, promptHashes } from './drive.js';

// Issue #13, rule 3, at the engine: a request carrying hashes for its generated positions
// (`kvBlockHashes`) leaves the blocks its answer filled in the prefix cache.

describe('blocks filled by generated tokens', () => {
  const latency = blackbox([0, 0, 0], [1000, 1, 10]);
  // A: 20-token prompt (1 full block), 30 output tokens, 29 stored: 49 tokens, 3 full blocks.
  // B: a later turn of the same conversation, 60 tokens whose first 49 are A's prompt and answer.
  const a = (kv: boolean) =>
    makeRequestSpec({
      index: 0,
      arrivalUs: 0,
      inputTokens: 20,
      outputTokens: 30,
      blockHashes: promptHashes(20, 16, 0, 0, 0),
      ...(kv ? { kvBlockHashes: promptHashes(49, 16, 0, 0, 0) } : {}),
    });
  const b = makeRequestSpec({ index: 1, arrivalUs: 1_000_000, inputTokens: 60, outputTokens: 1, blockHashes: promptHashes(60, 16, 0, 0, 0) });

  it('are hit by the next turn: 3 blocks, not only the prompt one', () => {
    const { log, steps } = drive(instanceConfig(latency), [a(true), b]);
    expect(log.filter((e) => e.kind === 'scheduled').map((e) => e.hits)).toEqual([0, 3]);
    // B prefills 60 - 48 = 12 tokens.
    expect(steps.find((s) => s.start === 1_000_000)!.prefillNew).toEqual([12]);
  });

  it('are not cached without kvBlockHashes (BLIS-parity requests): the prompt block only', () => {
    const { log } = drive(instanceConfig(latency), [a(false), b]);
    expect(log.filter((e) => e.kind === 'scheduled').map((e) => e.hits)).toEqual([0, 1]);
  });

  it('are registered again by a preempted request that decodes them anew', () => {
    // 4 blocks of 16 tokens. C (16-token prompt, 40 output: 4 blocks in the end) runs first; A
    // joins in the next step. Once both hold 2 blocks, the next block either needs is taken from
    // the other: A, the newest, is preempted (its blocks freed, hashes kept, then evicted by C)
    // until C completes. A then decodes its whole answer again and registers its blocks anew,
    // so B still hits all 3.
    const c = makeRequestSpec({ index: 2, arrivalUs: 0, inputTokens: 16, outputTokens: 40, blockHashes: promptHashes(16, 16, 0, 0, 2) });
    const { log, instance } = drive(instanceConfig(latency, { totalKVBlocks: 4 }), [{ ...a(true), arrivalUs: 1 }, c, b]);
    const preempted = log.filter((e) => e.kind === 'preempted').map((e) => e.req);
    expect(preempted.length).toBeGreaterThan(0);
    expect(new Set(preempted)).toEqual(new Set([0]));
    expect(log.filter((e) => e.kind === 'scheduled' && e.req === 1).map((e) => e.hits)).toEqual([3]);
    expect(instance.metrics.completed).toBe(3);
  });
});
