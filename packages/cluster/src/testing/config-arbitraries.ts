import { type PolicyRegistry, defaultPolicyRegistry } from '@blis/policies';
import fc from 'fast-check';
import type { SimulationConfigInput } from '../config-schema.js';
import { autoscalingArb, kvTierArb, pdConfigArb, pdTopologyArb, topologySize } from './feature-arbitraries.js';
import { admissionArb, namedPolicyArb, routingArb } from './policy-arbitraries.js';
import { type InlineWorkloadOptions, inlineSpecWorkloadArb } from './workload-arbitraries.js';
import { flowControlConfigArb } from './flow-control-arbitraries.js';

/** An optional feature: never (default), always, or in some of the generated configs. */
export type FeatureChoice = boolean | 'sometimes';

/** Options of {@link simulationConfigArb}. */
export interface SimulationConfigArbOptions extends InlineWorkloadOptions {
  /** Most instances without P/D or autoscaling (default 8). */
  maxInstances?: number;
  /** KV blocks per instance: fewest and most (defaults 4 and 300; small caches preempt and drop). */
  minKvBlocks?: number;
  maxKvBlocks?: number;
  /** Prefill/decode disaggregation (topologies of up to 11 pods). */
  pd?: FeatureChoice;
  /** An autoscaler with an instance lifecycle and maybe node pools. */
  autoscaling?: FeatureChoice;
  /** A CPU KV tier or an offload chain behind every GPU cache. */
  kvTiers?: FeatureChoice;
  /** Registry whose policies are drawn (default: the built-ins). */
  registry?: PolicyRegistry;
  /** Set `checkInvariants` (the engine's own monitor, INV-2..5 and INV-8 on every event). Default true. */
  engineChecks?: boolean;
}

/** The blackbox coefficients of the catalogue's default model, or a variant with alpha2 and a larger step cost. */
const latencyArb = fc.constantFrom<Partial<SimulationConfigInput>>({}, { latencyModel: 'blackbox', alphaCoeffs: [2000, 1, 700], betaCoeffs: [5000, 20, 300] });

function featureArb(choice: FeatureChoice | undefined): fc.Arbitrary<boolean> {
  return choice === 'sometimes' ? fc.boolean() : fc.constant(choice === true);
}

/**
 * Whole simulation configs that `SimulationConfigSchema` accepts and `simulate()` runs in
 * milliseconds: 1 to `maxInstances` instances, small KV caches, batch limits, every policy of
 * every kind in the registry with valid params (admission, priority, routing with weighted
 * scorers, scheduler, preemption), snapshot refresh, admission and routing latencies, flow
 * control, context windows, and an inline spec workload. P/D, autoscaling and KV tiers are
 * opt-in. Every config sets `includeRequests` (the per-request checks need it).
 */
export function simulationConfigArb(options: SimulationConfigArbOptions = {}): fc.Arbitrary<SimulationConfigInput> {
  const registry = options.registry ?? defaultPolicyRegistry;
  const base = fc.record({
    seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
    instances: fc.integer({ min: 1, max: options.maxInstances ?? 8 }),
    kvBlocks: fc.integer({ min: options.minKvBlocks ?? 4, max: options.maxKvBlocks ?? 300 }),
    maxNumSeqs: fc.integer({ min: 1, max: 16 }),
    budget: fc.integer({ min: 16, max: 1024 }),
    routing: routingArb(registry),
    admission: admissionArb(registry),
    scheduler: namedPolicyArb('scheduler', registry),
    priority: namedPolicyArb('priority', registry),
    preemption: fc.constantFrom('fcfs' as const, 'priority' as const),
    refresh: fc.constantFrom(0, 1, 1_000, 50_000),
    cacheDelay: fc.constantFrom(0, 50_000),
    admissionLatency: fc.constantFrom(0, 500),
    routingLatency: fc.constantFrom(0, 2_000),
    flow: fc.option(flowControlConfigArb(), { freq: 2 }),
    queueThreshold: fc.constantFrom(1, 5, 20),
    kvThreshold: fc.constantFrom(0.3, 0.8, 1),
    maxModelLen: fc.constantFrom(0, 0, 0, 300, 940),
    latency: latencyArb,
    workload: inlineSpecWorkloadArb(options),
  });
  const features = fc.record({ pd: featureArb(options.pd), autoscaling: featureArb(options.autoscaling), kvTiers: featureArb(options.kvTiers) });
  return fc.tuple(base, features).chain(([c, f]) => {
    const config: SimulationConfigInput = {
      seed: c.seed,
      numInstances: c.instances,
      ...c.latency,
      totalKVBlocks: c.kvBlocks,
      maxNumSeqs: c.maxNumSeqs,
      maxNumBatchedTokens: c.budget,
      maxModelLen: c.maxModelLen,
      routing: c.routing,
      admission: c.admission,
      scheduler: c.scheduler,
      priority: c.priority,
      preemptionPolicy: c.preemption,
      snapshotRefreshIntervalUs: c.refresh,
      cacheSignalDelayUs: c.cacheDelay,
      admissionLatencyUs: c.admissionLatency,
      routingLatencyUs: c.routingLatency,
      flowControl: c.flow ?? { enabled: false, queueDepthThreshold: c.queueThreshold, kvUtilizationThreshold: c.kvThreshold },
      workload: c.workload,
      checkInvariants: options.engineChecks ?? true,
      includeRequests: true,
    };
    // Each feature adds its fields to the base config; P/D fixes the instance count first.
    let arb: fc.Arbitrary<SimulationConfigInput> = fc.constant(config);
    if (f.pd)
      // Context windows come per pool under P/D. A global one beside them can leave a shared pod
      // stepping empty batches every µs until a deadline passes (hundreds of thousands of steps).
      arb = arb.chain((cfg) => pdTopologyArb.chain((t) => pdConfigArb(t).map((pd) => ({ ...cfg, numInstances: topologySize(t), maxModelLen: 0, pd }))));
    if (f.autoscaling)
      arb = arb.chain((cfg) =>
        autoscalingArb(cfg.pd !== undefined ? 2 : 1).map((a) => {
          // Autoscaled P/D starts with one prefill pod and the rest decode (BLIS's layout).
          // Encode pods stay beside them, after them: they load as any replica does, and until
          // one is routable the encode stage rejects what it would encode.
          const pd = cfg.pd !== undefined ? { ...cfg.pd, prefillInstances: 1, decodeInstances: a.numInstances - 1, prefillDecodeInstances: 0 } : undefined;
          return { ...cfg, numInstances: a.numInstances + (pd?.encodeInstances ?? 0), autoscaling: a.autoscaling, lifecycle: a.lifecycle, ...(a.nodePools ? { nodePools: a.nodePools } : {}), ...(pd ? { pd } : {}) };
        }),
      );
    if (f.kvTiers) arb = arb.chain((cfg) => kvTierArb.map((k) => ({ ...cfg, ...k })));
    return arb;
  });
}
