import { type SimulationConfigInput, simulate } from '@blis/cluster';
import { HEAD_FIXTURE_DIR, type ParityRun, type RunComparison, compareRun, loadReference } from './parity-compare.js';

// Issue 38 (MoE half): BLIS HEAD (f90a1e3a, unpatched) runs of `blis run --model
// qwen/qwen3-30b-a3b --hardware H100 --num-instances 2 --rate 100 --num-requests 1000
// --total-kv-blocks 20000` with each run's parallelism (fixtures/blis-head-parity/README.md),
// shared by moe-parity.test.ts and `pnpm parity`. KV capacity is given explicitly: at TP > 1
// BLIS counts the TP split twice, and at DP > 1 it reserves the whole model per rank
// (docs/engine-semantics.md items 8 and 9), so only the step times are under test.

export interface MoEParityRun extends ParityRun {
  /** The parallelism flags of BLIS's command line (and ours). */
  args: readonly string[];
  config: Pick<SimulationConfigInput, 'tp' | 'dp' | 'enableExpertParallel' | 'moeCommBackend'>;
}

/** BLIS's command line up to each run's parallelism flags. */
export const MOE_BASE_ARGS = ['--model', 'qwen/qwen3-30b-a3b', '--hardware', 'H100', '--num-instances', '2', '--rate', '100', '--num-requests', '1000', '--total-kv-blocks', '20000'] as const;

export const MOE_BASE: SimulationConfigInput = {
  seed: 42,
  numInstances: 2,
  model: 'qwen/qwen3-30b-a3b',
  hardware: 'H100',
  totalKVBlocks: 20000,
  workload: { kind: 'synthetic', rate: 100, numRequests: 1000 },
  includeRequests: true,
};

export const MOE_PARITY_RUNS: readonly MoEParityRun[] = [
  { name: 'moe-tp2', numInstances: 2, dir: HEAD_FIXTURE_DIR, args: ['--tp', '2'], config: { tp: 2 } },
  { name: 'moe-tp2-dp2-ep', numInstances: 2, dir: HEAD_FIXTURE_DIR, args: ['--tp', '2', '--dp', '2', '--enable-expert-parallel'], config: { tp: 2, dp: 2, enableExpertParallel: true } },
  {
    name: 'moe-tp1-dp4-ep-deepep',
    numInstances: 2,
    dir: HEAD_FIXTURE_DIR,
    args: ['--tp', '1', '--dp', '4', '--enable-expert-parallel', '--moe-comm-backend', 'deepep_low_latency'],
    config: { tp: 1, dp: 4, enableExpertParallel: true, moeCommBackend: 'deepep_low_latency' },
  },
];

/** One MoE run through `simulate()`, compared with BLIS's on every request and aggregate field. */
export function compareMoERun(run: MoEParityRun): RunComparison {
  const result = simulate({ ...MOE_BASE, ...run.config });
  return compareRun(run.name, loadReference(run), result.requests ?? [], result as unknown as Record<string, unknown>);
}
