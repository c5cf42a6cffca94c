import type { LatencyModel, ModelArchitecture } from '@blis/latency';
import { kvBytesPerTokenPerRank } from '@blis/latency/internal';
import { type DisaggregationDecider, type EncodeDecider, type PolicyFactoryContext, type PolicyRegistry, type RoutingPolicy, createEncodeDecider } from '@blis/policies';
import { routingReadsPrefixCache } from '../cache-signal.js';
import type { SimulationConfig } from '../config-schema.js';
import { resolveInstanceModel } from '../resolve-instance-model.js';
import type { PdSetup } from './pd-coordinator.js';
import type { PoolOverrides, ResolvedPdConfig } from './pd-schema.js';
import { poolLayout } from './pool-layout.js';

/** What one instance runs with under P/D: its pool's latency model, KV capacity and context window. */
export interface PoolInstanceSettings {
  latency: LatencyModel;
  totalKVBlocks: number;
  maxModelLen: number;
}

export interface PdSetupInput {
  config: SimulationConfig;
  pd: ResolvedPdConfig;
  /** The global latency model and KV capacity (pools without overrides use them). */
  latency: LatencyModel;
  totalKVBlocks: number;
  /** True when the caller handed a latency model object: pools cannot re-resolve theirs then. */
  latencyGiven: boolean;
  modelConfig: ModelArchitecture | undefined;
  /** The global tensor parallelism as resolved (model default when unset). */
  tp: number;
  registry: PolicyRegistry;
  ctx: (name: string, params: Record<string, unknown>) => PolicyFactoryContext;
  /** The main routing policy: the decode pool's router unless decode scorers are set. */
  routing: RoutingPolicy;
  /**
   * Builds the main routing policy afresh under a stream name, for the prefill pool: sharing one
   * stateful policy (round-robin's counter) would interleave the two pools' picks, so that every
   * prefill went to one pod and every decode to another. A caller's policy object is shared.
   */
  freshRouting: (streamName: string) => RoutingPolicy;
  routingIsCustom: boolean;
  decider?: DisaggregationDecider;
  /** An encode decider object that replaces `pd.encodeDecider` (custom deciders); used only with encode pods. */
  encodeDecider?: EncodeDecider;
}

export interface ResolvedPdSetup {
  setup: PdSetup;
  /** Settings of instance `i`. */
  instance(i: number): PoolInstanceSettings;
  /** Settings of a new instance of a pool (an autoscaled replica). */
  pool(pool: 'prefill' | 'decode'): PoolInstanceSettings;
  /** Whether a pool router or the decider reads prefix caches (the delayed cache signal is then kept). */
  readsPrefixCache: boolean;
}

/** Thrown for a P/D set-up that cannot be built (the message names the field). */
export class PdConfigError extends Error {
  override readonly name = 'PdConfigError';
}

/**
 * Builds the pools (each with its own latency model, TP, hardware and context window), the
 * pool routers, the decider and the transfer link. Shared pods take the decode overrides.
 */
export function resolvePdSetup(input: PdSetupInput): ResolvedPdSetup {
  const { config, pd } = input;
  const layout = poolLayout(pd, config.numInstances);
  const base: PoolInstanceSettings = { latency: input.latency, totalKVBlocks: input.totalKVBlocks, maxModelLen: config.maxModelLen };
  const prefill = poolSettings(pd.prefill, 'prefill', base, input);
  const decode = poolSettings(pd.decode, 'decode', base, input);

  const weighted = (scorers: NonNullable<ResolvedPdConfig['prefillRoutingScorers']>, name: string) => input.registry.createRoutingPolicy('weighted', input.ctx(name, { scorers }));
  const deciderParams = pd.decider === 'prefix-threshold' ? { threshold: pd.prefixThreshold, ...pd.deciderParams } : pd.deciderParams;
  const decider = input.decider ?? input.registry.createDecider(pd.decider, input.ctx('pd-decider', deciderParams));

  const modelConfig = input.modelConfig;
  if (modelConfig === undefined)
    throw new PdConfigError(`pd: expected the model's architecture (an HF config.json via modelConfigPath, or a catalogue model) to size KV transfers, found none for ${config.model}`);
  const prefillTp = pd.prefill.tp ?? input.tp;
  const bytesPerBlock = config.blockSizeTokens * kvBytesPerTokenPerRank(modelConfig.kvShape, prefillTp);

  // The delayed cache signal is kept only when something reads prefix caches: a pool's router
  // (its scorers, else the main policy) or a decider other than the two that ignore caches.
  const mainReads = routingReadsPrefixCache(config.routing.policy, config.routing.scorers, input.routingIsCustom);
  const poolReads = (s: ResolvedPdConfig['prefillRoutingScorers']) => (s === undefined ? mainReads : routingReadsPrefixCache('weighted', s, false));
  const encoding = pd.encodeInstances > 0;
  // The encode stage routes with the main policy.
  const readsPrefixCache =
    poolReads(pd.prefillRoutingScorers) || poolReads(pd.decodeRoutingScorers) || (encoding && mainReads) || input.decider !== undefined || (pd.decider !== 'never' && pd.decider !== 'always');

  return {
    setup: {
      layout,
      decider,
      prefillRouting: pd.prefillRoutingScorers === undefined ? input.freshRouting('prefill-router') : weighted(pd.prefillRoutingScorers, 'prefill-router'),
      decodeRouting: pd.decodeRoutingScorers === undefined ? input.routing : weighted(pd.decodeRoutingScorers, 'decode-router'),
      link: { bytesPerBlock, bandwidthGBps: pd.transferBandwidthGBps, baseLatencyMs: pd.transferBaseLatencyMs, contention: pd.transferContention },
      blockSizeTokens: config.blockSizeTokens,
      checkInvariants: config.checkInvariants,
      ...(encoding ? { encode: { decider: input.encodeDecider ?? createEncodeDecider(pd.encodeDecider)!, routing: input.routing } } : {}),
    },
    instance: (i) => (layout[i] === 'prefill' ? prefill : layout[i] === 'decode' || layout[i] === 'shared' ? decode : base),
    pool: (p) => (p === 'prefill' ? prefill : decode),
    readsPrefixCache,
  };
}

function poolSettings(o: PoolOverrides, pool: string, base: PoolInstanceSettings, input: PdSetupInput): PoolInstanceSettings {
  const maxModelLen = o.maxModelLen !== undefined && o.maxModelLen > 0 ? o.maxModelLen : base.maxModelLen;
  if (o.tp === undefined && o.hardware === undefined && o.latencyModel === undefined) return { ...base, maxModelLen };
  if (input.latencyGiven)
    throw new PdConfigError(`pd.${pool}: expected no tp, hardware or latencyModel override when a latency model object is given to simulate(), found one`);
  const { resolved, kv } = resolveInstanceModel(input.config, o);
  return { latency: resolved.model, totalKVBlocks: kv.blocks, maxModelLen };
}
