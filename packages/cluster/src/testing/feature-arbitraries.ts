import { defaultPolicyRegistry } from '@blis/policies';
import fc from 'fast-check';
import type { AutoscalingConfigInput, LifecycleConfigInput, NodePoolConfigInput } from '../autoscale/autoscale-schema.js';
import type { KVOffloadInput } from '../kv-offload-schema.js';
import type { PdConfigInput } from '../pd/pd-schema.js';
import { scorersArb } from './policy-arbitraries.js';

/** A P/D topology: P prefill, D decode, S shared pods, E encode pods (E/P/D) and `extra` pods in no pool. */
export interface PdTopology {
  prefill: number;
  decode: number;
  shared: number;
  /** Encode pods (0: no encode stage). */
  encode: number;
  extra: number;
}

/** BLIS's rules: counts >= 0; without shared pods both P and D > 0. At most 13 instances. */
export const pdTopologyArb: fc.Arbitrary<PdTopology> = fc
  .record({
    prefill: fc.integer({ min: 0, max: 3 }),
    decode: fc.integer({ min: 0, max: 3 }),
    shared: fc.integer({ min: 0, max: 3 }),
    encode: fc.oneof({ weight: 2, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 2 }) }),
    extra: fc.integer({ min: 0, max: 2 }),
  })
  .filter((t) => t.shared > 0 || (t.prefill > 0 && t.decode > 0));

/** Instances a topology needs. */
export function topologySize(t: PdTopology): number {
  return t.prefill + t.decode + t.shared + t.encode + t.extra;
}

const fewScorers = scorersArb(defaultPolicyRegistry, 3);

/**
 * The `pd` block for a topology: every decider (prefix-threshold with a threshold), transfer
 * links from slow to fast with or without contention, pool scorers and per-pool context windows.
 */
export function pdConfigArb(topology: PdTopology): fc.Arbitrary<PdConfigInput> {
  return fc
    .record({
      decider: fc.oneof(
        fc.constantFrom('never', 'always').map((decider) => ({ decider })),
        fc.integer({ min: 0, max: 400 }).map((prefixThreshold) => ({ decider: 'prefix-threshold', prefixThreshold })),
      ),
      contention: fc.boolean(),
      bandwidth: fc.constantFrom(0.5, 2, 10, 25, 100),
      baseMs: fc.constantFrom(0, 0.05, 1),
      prefillScorers: fc.option(fewScorers, { nil: undefined }),
      decodeScorers: fc.option(fewScorers, { nil: undefined }),
      prefillMaxLen: fc.constantFrom(0, 0, 0, 700),
      decodeMaxLen: fc.constantFrom(0, 0, 0, 900),
      encodeDecider: fc.constantFrom('never' as const, 'always' as const, 'multimodal' as const, 'multimodal' as const),
    })
    .map((c) => ({
      prefillInstances: topology.prefill,
      decodeInstances: topology.decode,
      prefillDecodeInstances: topology.shared,
      ...(topology.encode > 0 ? { encodeInstances: topology.encode, encodeDecider: c.encodeDecider } : {}),
      ...c.decider,
      transferContention: c.contention,
      transferBandwidthGBps: c.bandwidth,
      transferBaseLatencyMs: c.baseMs,
      ...(c.prefillScorers !== undefined ? { prefillRoutingScorers: c.prefillScorers } : {}),
      ...(c.decodeScorers !== undefined ? { decodeRoutingScorers: c.decodeScorers } : {}),
      prefill: { maxModelLen: c.prefillMaxLen },
      decode: { maxModelLen: c.decodeMaxLen },
    }));
}

/** The autoscaling part of a config: the autoscaler, the lifecycle and maybe node pools. */
export interface AutoscalingParts {
  /** Replicas to start with (within the bounds). */
  numInstances: number;
  autoscaling: AutoscalingConfigInput;
  lifecycle: LifecycleConfigInput;
  nodePools?: NodePoolConfigInput[];
}

const S = 1_000_000;
const delay = (maxS: number) => fc.record({ meanUs: fc.integer({ min: 0, max: maxS * S }), stddevUs: fc.constantFrom(0, 0, S) });

/**
 * An autoscaler (every built-in policy), bounds, stabilization windows, cooldown, scrape and
 * loading delays, warm-up, every drain policy and sometimes a node pool to place replicas on.
 * `minInstances` is the smallest start (2 under P/D: a prefill and a decode pod).
 */
export function autoscalingArb(minInstances = 1): fc.Arbitrary<AutoscalingParts> {
  return fc
    .record({
      policy: fc.constantFrom(...defaultPolicyRegistry.names('autoscaler')),
      min: fc.integer({ min: 0, max: 2 }),
      span: fc.integer({ min: 0, max: 5 }),
      extra: fc.integer({ min: 0, max: 3 }),
      intervalUs: fc.integer({ min: S / 2, max: 8 * S }),
      upWindowUs: fc.constantFrom(0, 0, 2 * S, 10 * S),
      downWindowUs: fc.constantFrom(0, 0, 5 * S, 30 * S),
      cooldownUs: fc.constantFrom(0, 0, 4 * S),
      scrape: delay(3),
      loading: delay(10),
      warmCount: fc.integer({ min: 0, max: 3 }),
      warmDurationUs: fc.constantFrom(0, 0, 3 * S),
      warmFactor: fc.constantFrom(1, 1.5, 3),
      drain: fc.constantFrom('wait' as const, 'immediate' as const, 'redirect' as const),
      warmStart: fc.boolean(),
      pools: fc.option(fc.record({ gpusPerNode: fc.integer({ min: 1, max: 3 }), headroom: fc.integer({ min: 0, max: 3 }), provisioning: delay(20) }), { nil: undefined }),
    })
    .map((c) => {
      // Start inside [min, max] so that the bounds hold from the first action on.
      const bound = Math.max(1, c.min + c.span);
      const start = Math.max(minInstances, Math.min(bound, c.min + c.extra));
      const max = Math.max(bound, start);
      const nodesNeeded = Math.ceil(start / (c.pools?.gpusPerNode ?? 1));
      const parts: AutoscalingParts = {
        numInstances: start,
        autoscaling: {
          intervalUs: c.intervalUs,
          policy: c.policy,
          minReplicas: c.min,
          maxReplicas: max,
          scaleUpStabilizationWindowUs: c.upWindowUs,
          scaleDownStabilizationWindowUs: c.downWindowUs,
          cooldownUs: c.cooldownUs,
          scrapeDelay: c.scrape,
        },
        lifecycle: {
          loadingDelay: c.loading,
          warmUpRequestCount: c.warmCount,
          warmUpDurationUs: c.warmDurationUs,
          warmUpTtftFactor: c.warmFactor,
          drainPolicy: c.drain,
          warmStartInitialInstances: c.warmStart,
        },
      };
      if (c.pools !== undefined)
        parts.nodePools = [
          { name: 'p', gpuType: 'H100', gpusPerNode: c.pools.gpusPerNode, gpuMemoryGib: 80, initialNodes: nodesNeeded, maxNodes: nodesNeeded + c.pools.headroom, provisioningDelay: c.pools.provisioning },
        ];
      return parts;
    });
}

/** The KV-tier fields of a config: a legacy CPU tier, or an offload chain. */
export interface KvTierParts {
  kvCpuBlocks?: number;
  kvTransferBandwidth?: number;
  kvTransferBaseLatencyUs?: number;
  kvReloadRecompute?: boolean;
  kvOffload?: KVOffloadInput;
}

/** llama-3.1-8b's KV bytes per 16-token block, so offload capacities are whole blocks. */
const BLOCK_BYTES = 2_097_152;

/**
 * A CPU tier behind every GPU cache (BLIS's `--kv-cpu-blocks` mirror, with bandwidth, base
 * latency and recompute), or an offload chain with a CPU tier and sometimes an NVMe tier with
 * jitter. The offload chain sizes blocks from the default model's config.
 */
export const kvTierArb: fc.Arbitrary<KvTierParts> = fc.oneof(
  fc.record({
    kvCpuBlocks: fc.integer({ min: 1, max: 2_000 }),
    kvTransferBandwidth: fc.constantFrom(1, 16, 100),
    kvTransferBaseLatencyUs: fc.constantFrom(0, 0, 50),
    kvReloadRecompute: fc.boolean(),
  }),
  fc.record({ blocks: fc.integer({ min: 4, max: 2_000 }), nvme: fc.boolean(), jitter: fc.constantFrom(0, 0.3) }).map(({ blocks, nvme, jitter }) => ({
    kvOffload: {
      cpuBytesToUse: blocks * BLOCK_BYTES,
      ...(nvme ? { secondaryTiers: [{ type: 'fs' as const, rootDir: '/mnt/nvme', directIo: true, deviceClass: 'nvme_gen4', latencyJitterStddev: jitter }] } : {}),
    },
  })),
);
