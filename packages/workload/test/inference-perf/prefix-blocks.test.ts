import type { RequestSpec } from '@blis/engine';
import { InferencePerfSource } from '@blis/workload/internal';
import { describe, expect, it } from 'vitest';
import { drain } from '../../src/testing/index.js';
import { CHAT_TWO_STAGES, closedLoop, planOf, section } from './ip-helpers.js';

// The KV cache sees an inference-perf prompt as its group's system prompt, then a question of its
// own: requests of one group share the blocks wholly inside the system prompt, and nothing after.

/** Number of leading block hashes two requests have in common. */
function sharedBlocks(a: RequestSpec, b: RequestSpec): number {
  const n = Math.min(a.blockHashes.length, b.blockHashes.length);
  let i = 0;
  while (i < n && a.blockHashes[i] === b.blockHashes[i]) i++;
  return i;
}

function checkGroups(reqs: readonly RequestSpec[], blockSize: number, prefixLength: number, inputTokens: number): void {
  const shared = Math.floor(prefixLength / blockSize);
  const byGroup = new Map<string, RequestSpec[]>();
  for (const r of reqs) {
    expect(r.blockHashes.length).toBe(Math.floor(inputTokens / blockSize));
    byGroup.set(r.tenantId, [...(byGroup.get(r.tenantId) ?? []), r]);
  }
  expect(byGroup.size).toBeGreaterThan(1);
  const heads = [...byGroup.values()].map((g) => g[0]);
  for (const group of byGroup.values()) {
    expect(group.length).toBeGreaterThan(1);
    // Exactly `shared` blocks in common within a group: the question's blocks always differ.
    for (const r of group.slice(1, 40)) expect(sharedBlocks(group[0], r)).toBe(shared);
  }
  // Across groups, not even the first block.
  for (let i = 1; i < heads.length; i++) expect(sharedBlocks(heads[0], heads[i])).toBe(0);
}

describe('prefix blocks of inference-perf requests', () => {
  it('one-off requests: floor(system_prompt_len / block) blocks shared within a group', () => {
    // 2 groups, system prompt 100 tokens, question 300: 400 tokens; at 16 per block 25 blocks, 6 shared.
    const plan = planOf(section([{ rate: 5, duration: 20 }], { num_unique_system_prompts: 2, num_users_per_system_prompt: 2, system_prompt_len: 100, question_len: 300 }));
    checkGroups(drain(new InferencePerfSource(plan, { seed: 2, blockSizeTokens: 16 })), 16, 100, 400);
    // At 32 per block: floor(100 / 32) = 3 shared of 12.
    checkGroups(drain(new InferencePerfSource(plan, { seed: 2, blockSizeTokens: 32 })), 32, 100, 400);
  });

  it('chat rounds, first and follow-up alike: 100 / 16 → 6 blocks shared in the group, of 547 / 16 → 34', () => {
    const reqs = closedLoop(new InferencePerfSource(planOf(CHAT_TWO_STAGES), { seed: 42, blockSizeTokens: 16 })).slice(0, 600);
    expect(reqs.some((r) => r.roundIndex > 0)).toBe(true);
    checkGroups(reqs, 16, 100, 547);
  });

  it('a 0-token system prompt still shares BLIS\'s 50-token default: 3 blocks of 16', () => {
    const plan = planOf(section([{ rate: 5, duration: 20 }], { num_unique_system_prompts: 2, system_prompt_len: 0, question_len: 40 }));
    // 50 + 40 = 90 tokens: 5 blocks, floor(50 / 16) = 3 of them shared.
    checkGroups(drain(new InferencePerfSource(plan, { seed: 4, blockSizeTokens: 16 })), 16, 50, 90);
  });
});
