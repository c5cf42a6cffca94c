import { join } from 'node:path';
import { INSTANCE_DEFAULTS, type InstanceConfig, type RequestSpec, runInstance } from '@blis/engine';
import type { LatencyModel, StepBatch } from '@blis/latency';
import { createRequestSource, openTrace, parseWorkloadSpec } from '@blis/workload';
import { describe, expect, it } from 'vitest';
import { Recording } from './recording-source.js';

// Engine-level runs (one instance, `runInstance`): @blis/workload sits below @blis/cluster, so
// cluster-level replays and run/replay parity are tested in packages/cli/test/workload-cli.test.ts.

const FIX = join(import.meta.dirname, 'fixtures');

/** BLIS's blackbox step model with llama-3.1-8b/H100 coefficients (the parity reference's). */
const LLAMA8B: LatencyModel = {
  kind: 'blackbox',
  stepTime: (b: StepBatch) => Math.max(1, Math.trunc(6472.007648778123 + 19.79721387814611 * b.prefillTokens + 304.4021040302657 * b.decodeTokens)),
  queueingTime: () => 10326,
  outputTokenTime: () => 0,
  postDecodeFixedOverhead: () => 0,
};

const instance = (totalKVBlocks: number): InstanceConfig => ({
  ...INSTANCE_DEFAULTS,
  index: 0,
  id: 'instance_0',
  latency: LLAMA8B,
  totalKVBlocks,
  checkInvariants: true,
});


/** INV-1 on one instance: every injected request is completed, dropped, timed out, queued or running. */
function accountFor(res: ReturnType<typeof runInstance>) {
  const m = res.instance.metrics;
  const parts = { completed: m.completed, dropped: m.dropped, timedOut: m.timedOut, queued: res.instance.queueDepth, running: res.instance.batchSize };
  expect(parts.completed + parts.dropped + parts.timedOut + parts.queued + parts.running).toBe(res.injected);
  return parts;
}

describe('fixture replays account for every request (INV-1)', () => {
  // Enough KV that nothing is preempted (asserted), and no more: the invariant checks walk every
  // block every step. Each trace runs once; the tests below read the same run.
  const AMPLE: Record<string, number> = { 'mooncake-synthetic-300.jsonl': 40_000, 'azure-code-300.csv': 20_000 };
  const runs = new Map<string, ReturnType<typeof runInstance>>();
  const ampleRun = (file: string) => {
    let res = runs.get(file);
    if (res === undefined) {
      res = runInstance(instance(AMPLE[file]), openTrace(join(FIX, file)));
      runs.set(file, res);
    }
    return res;
  };

  it.each(Object.keys(AMPLE))('%s with ample KV (no preemption): all 300 injected and completed', (file) => {
    const res = ampleRun(file);
    expect(res.injected).toBe(300);
    expect(res.instance.metrics.preemptions).toBe(0);
    expect(accountFor(res)).toEqual({ completed: 300, dropped: 0, timedOut: 0, queued: 0, running: 0 });
  }, 240_000);

  it('Mooncake with a KV cache smaller than its longest prompts: the unservable ones are dropped, the rest complete', () => {
    // 2,000 blocks of 16 = 32,000 tokens; the fixture has prompts of up to ~40,000 tokens.
    const res = runInstance(instance(2000), openTrace(join(FIX, 'mooncake-synthetic-300.jsonl')));
    const parts = accountFor(res);
    expect(res.injected).toBe(300);
    expect(parts.dropped).toBeGreaterThan(0);
    expect(parts.completed).toBeGreaterThan(0);
    expect(parts.queued + parts.running).toBe(0);
  });

  it('Azure cut at a horizon: requests in flight are counted as queued or running, later ones never injected', () => {
    const src = openTrace(join(FIX, 'azure-code-300.csv'));
    const res = runInstance(instance(50_000), src, { horizonUs: 20_000_000 });
    const parts = accountFor(res);
    let notYet = 0;
    while (src.next() !== undefined) notYet++;
    expect(res.injected + notYet).toBe(300);
    expect(notYet).toBeGreaterThan(0);
    expect(parts.completed).toBeGreaterThan(0);
  });

  it('Mooncake requests that share hash ids hit the prefix cache', () => {
    expect(ampleRun('mooncake-synthetic-300.jsonl').instance.kv.stats().cacheHits).toBeGreaterThan(0);
  }, 240_000);
});

describe('multi-turn sessions under simulation', () => {
  const THINK = 400_000;
  const spec = parseWorkloadSpec({
    version: '2',
    seed: 3,
    aggregate_rate: 20,
    num_requests: 120,
    clients: [
      {
        id: 'chat',
        rate_fraction: 1,
        prefix_group: 'sys',
        prefix_length: 80,
        input_distribution: { type: 'gaussian', params: { mean: 120, std_dev: 40, min: 20, max: 400 } },
        output_distribution: { type: 'gaussian', params: { mean: 60, std_dev: 20, min: 8, max: 200 } },
        reasoning: { multi_turn: { max_rounds: 4, think_time_us: THINK, context_growth: 'accumulate' } },
      },
    ],
  });

  it('each round arrives think time after the previous round completes (session causality), and reuses its cache', () => {
    const rec = new Recording(createRequestSource(spec));
    const res = runInstance(instance(100_000), rec);
    // The first 120 of BLIS's open-loop placements hold 41 session starts; each runs its 4 rounds.
    expect(accountFor(res).completed).toBe(164);
    const rounds = new Map<string, RequestSpec[]>();
    for (const r of rec.emitted) rounds.set(r.sessionId, [...(rounds.get(r.sessionId) ?? []), r]);
    expect(rounds.size).toBe(41);
    const hits = new Map<number, number>();
    const m = res.instance.metrics;
    for (let i = 0; i < m.requestIndex.length; i++) hits.set(m.requestIndex.get(i), m.cacheHitBlocks.get(i));
    for (const session of rounds.values()) {
      expect(session.map((r) => r.roundIndex)).toEqual([0, 1, 2, 3]);
      for (let k = 1; k < session.length; k++) {
        const prev = session[k - 1];
        const done = rec.done.get(prev.index)!;
        expect(done.outcome).toBe('completed');
        expect(session[k].arrivalUs).toBe(done.at + THINK);
        // The previous prompt's blocks are still cached (ample KV, one instance).
        expect(hits.get(session[k].index)).toBeGreaterThanOrEqual(prev.blockHashes.length);
      }
    }
  });
});
