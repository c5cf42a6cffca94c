import type { KVTierConfig } from '@blis/kvcache';
import type { LatencyModel } from '@blis/latency';
import type { InstanceScheduler, PreemptionPolicyName, PriorityPolicy } from '@blis/policies';
import type { LoraSettings } from './lora/lora-settings.js';

/** Everything that shapes one simulated vLLM instance. */
export interface InstanceConfig {
  /** Position in the cluster (0-based); also orders same-tick events across instances. */
  index: number;
  /** Name used in results (`instance_0`, ...). */
  id: string;
  latency: LatencyModel;
  totalKVBlocks: number;
  /** A CPU tier or offload chain behind the GPU cache (BLIS `--kv-cpu-blocks` / `--kv-offload-config`); absent = GPU only. */
  kvTiers?: KVTierConfig;
  /** Standard normal draws for the offload chain's transfer jitter (its own RNG stream); unused without jitter. */
  kvTierNormal?: () => number;
  /** Tokens per KV block (16). */
  blockSizeTokens: number;
  /** vLLM `--max-num-seqs` (BLIS `--max-num-running-reqs`), default 256. */
  maxNumSeqs: number;
  /** vLLM `--max-num-batched-tokens` (BLIS `--max-num-scheduled-tokens`), default 2048. */
  maxNumBatchedTokens: number;
  /** Per-request prefill chunk cap in tokens; 0 disables it (the budget still chunks). */
  longPrefillTokenThreshold: number;
  /**
   * Where the latency model sees the first prefill chunk of a request with prefix-cache hits
   * start: at the cached length, where its prefill really starts (`cached`, the default), or at
   * 0, as BLIS hands it (`zero`). Only roofline reads the chunk's start.
   */
  prefixHitPrefillStart?: 'cached' | 'zero';
  /**
   * vLLM `--max-model-len`: the most prompt plus output tokens a request may ask for; 0 or
   * absent = no limit. A request over it is dropped when it reaches the wait queue.
   */
  maxModelLen?: number;
  /** Orders the wait queue; a scheduler without `compare` keeps arrival order. */
  scheduler?: InstanceScheduler;
  /** Scores requests; time-dependent scores are refreshed before each batch formation. */
  priority?: PriorityPolicy;
  /** Which running request to evict on KV pressure: the newest (fcfs) or the least urgent. */
  preemptionPolicy: PreemptionPolicyName;
  /** LoRA adapters served here (registry, slots, costs); absent = none, and no LoRA code runs. */
  lora?: LoraSettings;
  /** Run the invariant monitor (INV-2..5, INV-8) on every event; slower, for tests. */
  checkInvariants: boolean;
  /**
   * The reference engine: every running request is advanced every step, none in bulk. Same
   * results, slower; the oracle of the bulk engine's differential tests.
   */
  stepByStep?: boolean;
}

export const INSTANCE_DEFAULTS = {
  blockSizeTokens: 16,
  maxNumSeqs: 256,
  maxNumBatchedTokens: 2048,
  longPrefillTokenThreshold: 0,
  preemptionPolicy: 'fcfs',
  checkInvariants: false,
} as const;
