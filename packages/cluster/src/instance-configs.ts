import { type GoRand, goSubsystemRand } from '@blis/workload/internal';
import type { InstanceConfig, LoraSettings } from '@blis/engine';
import type { KVTierConfig } from '@blis/kvcache';
import type { LatencyModel } from '@blis/latency';
import type { InstanceScheduler, PriorityPolicy } from '@blis/policies';
import type { SimulationConfig } from './config-schema.js';
import type { ResolvedPdSetup } from './pd/pd-setup.js';

/** What every instance of a run is built from (a P/D pool may override some of it). */
export interface InstanceConfigInputs {
  config: SimulationConfig;
  latency: LatencyModel;
  totalKVBlocks: number;
  kvTiers: KVTierConfig | undefined;
  priority: PriorityPolicy;
  lora: LoraSettings | undefined;
  stepByStep: boolean | undefined;
  /** Instance `i`'s scheduler (schedulers may keep per-instance state). */
  scheduler(i: number): InstanceScheduler;
}

/** Builds instance `i`'s config, from its P/D pool's settings when it has one. */
export type InstanceConfigFactory = (i: number, pool: ReturnType<ResolvedPdSetup['instance']> | undefined) => InstanceConfig;

/** The factory of a run's instance configs: at start-up and for replicas the autoscaler adds. */
export function instanceConfigFactory(inputs: InstanceConfigInputs): InstanceConfigFactory {
  const { config, latency, totalKVBlocks, kvTiers, priority, lora } = inputs;
  return (i, pool) => ({
    index: i,
    id: `instance_${i}`,
    latency: pool?.latency ?? latency,
    totalKVBlocks: pool?.totalKVBlocks ?? totalKVBlocks,
    // Transfer jitter draws from a stream of its own per instance (BLIS's kv-offload partition),
    // and only when a device sets jitter, so other streams never shift.
    ...(kvTiers !== undefined ? { kvTiers, kvTierNormal: jitterSource(config.seed) } : {}),
    blockSizeTokens: config.blockSizeTokens,
    maxNumSeqs: config.maxNumSeqs,
    maxNumBatchedTokens: config.maxNumBatchedTokens,
    longPrefillTokenThreshold: config.longPrefillTokenThreshold,
    prefixHitPrefillStart: config.prefixHitPrefillStart,
    maxModelLen: pool?.maxModelLen ?? config.maxModelLen,
    scheduler: inputs.scheduler(i),
    priority,
    preemptionPolicy: config.preemptionPolicy,
    checkInvariants: config.checkInvariants,
    stepByStep: inputs.stepByStep,
    ...(lora !== undefined ? { lora } : {}),
  });
}

/**
 * An instance's offload jitter draws as BLIS makes them: each instance's KV store seeds its own
 * `kv-offload` stream from the run seed (sim/kv/register.go), so every instance draws the same
 * sequence of Go `NormFloat64`s. Seeded at the first draw: only jittered tiers draw.
 */
function jitterSource(seed: number): () => number {
  let stream: GoRand | undefined;
  return () => {
    stream ??= goSubsystemRand(BigInt(seed), 'kv-offload');
    return stream.normFloat64();
  };
}
