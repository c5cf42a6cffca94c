import type { InstanceConfig } from '@blis/engine';
import type { AutoScalePolicy, PolicyFactoryContext, PolicyRegistry, PoolType } from '@blis/policies';
import { type GoRand, goSubsystemRand } from '@blis/workload/internal';
import type { SimulationConfig } from '../config-schema.js';
import type { FleetCeiling } from '../limits/fleet-ceiling.js';
import type { ResolvedPdSetup } from '../pd/pd-setup.js';
import { type AutoscalingConfig, LifecycleSchema } from './autoscale-schema.js';
import type { FleetSettings, GroupSpec } from './fleet.js';

/** What the cluster runs the lifecycle and the autoscaler with. */
export interface LifecycleSetup {
  fleet: FleetSettings;
  autoscaling?: { config: AutoscalingConfig; policies: AutoScalePolicy[]; normal: () => number; ceiling?: FleetCeiling };
  /** Whether a completion met its latency targets (undefined: it had none), for the autoscaler's SLO signal. */
  metTargets(sloTargetUs: number, ttftUs: number, e2eUs: number): boolean | undefined;
}

export interface LifecycleSetupInput {
  config: SimulationConfig;
  registry: PolicyRegistry;
  ctx: (name: string, params: Record<string, unknown>) => PolicyFactoryContext;
  /** Tensor parallelism and KV blocks of an instance without P/D overrides. */
  tp: number;
  totalKVBlocks: number;
  pd: ResolvedPdSetup | undefined;
  /** Each startup instance's pool. */
  layout: readonly PoolType[];
  /** Builds an instance's configuration (as the startup ones are built). */
  newInstance: (index: number, pool: PoolType) => InstanceConfig;
  /** A policy object per scaling group that replaces `autoscaling.policy` (custom autoscalers). */
  autoscaler?: (pool: PoolType) => AutoScalePolicy;
}

/**
 * The lifecycle is on when autoscaling (a positive interval), node pools or a lifecycle section
 * is configured; otherwise undefined, and the run is exactly what it was without this feature.
 */
export function resolveLifecycle(input: LifecycleSetupInput): LifecycleSetup | undefined {
  const { config, pd } = input;
  const as = config.autoscaling !== undefined && config.autoscaling.intervalUs > 0 ? config.autoscaling : undefined;
  if (as === undefined && config.nodePools === undefined && config.lifecycle === undefined) return undefined;
  const lifecycle = config.lifecycle ?? LifecycleSchema.parse({});
  const block = config.blockSizeTokens;

  const base: GroupSpec = { pool: 'monolithic', gpuType: config.hardware ?? '', tp: input.tp, kvCapacityTokens: input.totalKVBlocks * block };
  const poolSpec = (p: 'prefill' | 'decode'): GroupSpec => {
    const o = config.pd?.[p];
    return { pool: p, gpuType: o?.hardware ?? base.gpuType, tp: o?.tp ?? base.tp, kvCapacityTokens: pd!.pool(p).totalKVBlocks * block };
  };
  const groups: GroupSpec[] = pd === undefined ? [base] : [poolSpec('prefill'), poolSpec('decode')];
  const initial = input.layout.map((p): GroupSpec => {
    if (pd === undefined) return base;
    if (p === 'prefill' || p === 'decode') return poolSpec(p);
    // Shared pods run with the decode pool's settings; unassigned ones with the global ones.
    return { ...(p === 'shared' ? poolSpec('decode') : base), pool: p };
  });

  // BLIS's named streams (sim/cluster/infra_config.go): Go's math/rand seeded with the run seed
  // XOR FNV-1a of the name, standard normals by its NormFloat64, so delays are BLIS's draw for draw.
  const streams = new Map<string, GoRand>();
  const normal = (name: string) => {
    let s = streams.get(name);
    if (s === undefined) {
      s = goSubsystemRand(BigInt(config.seed), name);
      streams.set(name, s);
    }
    return s.normFloat64();
  };

  const slo = { ttft: config.sloTtftUs, e2e: config.sloE2eUs };
  const setup: LifecycleSetup = {
    fleet: {
      lifecycle,
      nodePools: config.nodePools,
      groups,
      initial,
      normal: (stream) => normal(stream === 'loading' ? 'instance-loading' : 'node-provisioning'),
      newInstance: input.newInstance,
    },
    metTargets: (target, ttft, e2e) => {
      const t = target > 0 ? target : slo.ttft;
      if (t <= 0 && slo.e2e <= 0) return undefined;
      return (t <= 0 || ttft <= t) && (slo.e2e <= 0 || e2e <= slo.e2e);
    },
  };
  if (as !== undefined) {
    const policies = groups.map((g) => input.autoscaler?.(g.pool) ?? input.registry.createAutoscaler(as.policy, input.ctx(`autoscaler/${g.pool}`, as.params)));
    setup.autoscaling = { config: as, policies, normal: () => normal('autoscaler') };
  }
  return setup;
}
