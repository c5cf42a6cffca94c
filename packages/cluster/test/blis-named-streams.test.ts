import type { DecisionObserver } from '@blis/trace';
import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

// Draws BLIS makes from its named streams come from the same streams here: Go's math/rand seeded
// with the run seed XOR FNV-1a of the name, standard normals by NormFloat64.

// Go 1.23's own draws (math/rand.New(rand.NewSource(42 ^ fnv1a64(name))).NormFloat64(), via a
// throwaway Go program outside the repo), as BLIS's DelaySpec.Sample turns them into µs for
// N(240 s, 30 s): int64((n·30 + 240)·1e6). BLIS HEAD's first loading delay is 258.753 s.
const GO_LOADING_US = [258_753_054, 223_642_506, 229_617_462, 280_039_828];

/** BLIS's docs/configs/phase2-autoscaler.yaml, as the CLI reads it. */
const PHASE2 = {
  autoscaling: {
    intervalUs: 30_000_000,
    policy: 'wva-saturation',
    params: { kv_cache_threshold: 0.8, scale_up_threshold: 0.8, scale_down_boundary: 0.4, avg_input_tokens: 512 },
    scaleUpStabilizationWindowUs: 240_000_000,
    scaleDownStabilizationWindowUs: 240_000_000,
    scrapeDelay: { meanUs: 0, stddevUs: 0 },
  },
  nodePools: [
    { name: 'h100-tp1', gpuType: 'H100', gpusPerNode: 1, gpuMemoryGib: 80, initialNodes: 5, minNodes: 0, maxNodes: 5, costPerHour: 0, provisioningDelay: { meanUs: 0, stddevUs: 0 } },
  ],
  lifecycle: { loadingDelay: { meanUs: 240_000_000, stddevUs: 30_000_000 }, warmStartInitialInstances: true },
};

describe("BLIS's named streams", () => {
  it("replica loading delays are BLIS's instance-loading draws, in placement order", () => {
    // Each replica's time in `loading`, in the order the replicas entered it (= placement order).
    const entered = new Map<string, number>();
    const loadingUs = new Map<string, number>();
    const observer: Partial<DecisionObserver> = {
      onInstanceState(_i: number, id: string, state: string, now: number) {
        if (state === 'loading') {
          entered.set(id, now);
          loadingUs.set(id, Number.NaN);
        } else if (entered.has(id)) {
          loadingUs.set(id, now - entered.get(id)!);
          entered.delete(id);
        }
      },
    };
    const result = simulate(
      { model: 'meta-llama/llama-3.1-8b-instruct', hardware: 'H100', seed: 42, workload: { kind: 'synthetic', rate: 40, numRequests: 12_000 }, ...PHASE2 },
      { observer: observer as DecisionObserver },
    );
    expect(result.autoscaling?.replicas_added).toBeGreaterThanOrEqual(4);
    // Startup replicas start warm (no draw); the four the autoscaler placed draw in turn.
    const drawn = [...loadingUs.values()].filter((us) => us !== 0);
    expect(drawn.slice(0, 4)).toEqual(GO_LOADING_US);
  });
});
