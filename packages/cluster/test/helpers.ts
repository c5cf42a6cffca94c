import { ArrayRequestSource, type InstanceConfig, type RequestSpec, makeRequestSpec } from '@blis/engine';
import { chainHash, hashString } from '@blis/kvcache';
import type { LatencyModel, StepBatch } from '@blis/latency';
import {
  createAdmissionPolicy,
  createPriorityPolicy,
  createRoutingPolicy,
  createScheduler,
  policyContext,
} from '@blis/policies';
import { ClusterSimulator } from '../src/cluster-simulator.js';
import type { ClusterSetup } from '../src/cluster-setup.js';
import { type SimulationResult, buildResult } from '../src/results.js';

/** BLIS's blackbox model with explicit coefficients (what the catalogue would resolve to). */
export function blackbox(alpha: readonly number[], beta: readonly number[]): LatencyModel {
  return {
    kind: 'blackbox',
    stepTime(b: StepBatch) {
      let t = 0;
      t += beta[0];
      t += beta[1] * b.prefillTokens;
      t += beta[2] * b.decodeTokens;
      return Math.max(1, Math.trunc(t));
    },
    queueingTime: (n) => Math.trunc(alpha[0] + alpha[1] * n),
    outputTokenTime: () => Math.trunc(alpha[2]),
    postDecodeFixedOverhead: () => 0,
  };
}

/** llama-3.1-8b-instruct on H100, TP 1, vLLM v0.11.0 (the parity reference's coefficients). */
export const LLAMA8B = blackbox([10326.268121600151, 0, 0], [6472.007648778123, 19.79721387814611, 304.4021040302657]);

/** Prompt block hashes: `shared` leading blocks from a named group, the rest unique to `uniq`. */
export function hashesFor(inputTokens: number, group: string, sharedBlocks: number, uniq: string, blockSize = 16): number[] {
  const n = Math.floor(inputTokens / blockSize);
  const out: number[] = [];
  let h = 0;
  const g = hashString(group);
  const u = hashString(uniq);
  for (let i = 0; i < n; i++) {
    h = chainHash(h, i < sharedBlocks ? chainHash(g, i) : chainHash(u, i));
    out.push(h);
  }
  return out;
}

export function spec(i: number, arrivalUs: number, inputTokens: number, outputTokens: number, extra: Partial<RequestSpec> = {}): RequestSpec {
  return makeRequestSpec({ index: i, arrivalUs, inputTokens, outputTokens, blockHashes: hashesFor(inputTokens, '', 0, `r${i}`), ...extra });
}

export interface BuildOptions {
  instances?: number;
  latency?: LatencyModel;
  kvBlocks?: number;
  maxNumSeqs?: number;
  budget?: number;
  admission?: string;
  admissionParams?: Record<string, unknown>;
  priority?: string;
  routing?: string;
  routingParams?: Record<string, unknown>;
  scheduler?: string;
  preemption?: 'fcfs' | 'priority';
  checkInvariants?: boolean;
  maxModelLen?: number;
  setup?: Partial<ClusterSetup>;
}

export function buildCluster(specs: RequestSpec[], o: BuildOptions = {}): ClusterSimulator {
  const n = o.instances ?? 1;
  const ctx = (params: Record<string, unknown> = {}) => policyContext({ numInstances: n, params });
  const instances: InstanceConfig[] = Array.from({ length: n }, (_, i) => ({
    index: i,
    id: `instance_${i}`,
    latency: o.latency ?? LLAMA8B,
    totalKVBlocks: o.kvBlocks ?? 7463,
    blockSizeTokens: 16,
    maxNumSeqs: o.maxNumSeqs ?? 256,
    maxNumBatchedTokens: o.budget ?? 2048,
    longPrefillTokenThreshold: 0,
    maxModelLen: o.maxModelLen ?? 0,
    scheduler: createScheduler(o.scheduler ?? 'fcfs', ctx()),
    priority: createPriorityPolicy(o.priority ?? 'constant', ctx()),
    preemptionPolicy: o.preemption ?? 'fcfs',
    checkInvariants: o.checkInvariants ?? true,
  }));
  return new ClusterSimulator({
    instances,
    source: new ArrayRequestSource(specs),
    admission: createAdmissionPolicy(o.admission ?? 'always-admit', ctx(o.admissionParams)),
    priority: createPriorityPolicy(o.priority ?? 'constant', ctx()),
    routing: createRoutingPolicy(o.routing ?? 'round-robin', ctx(o.routingParams)),
    admissionLatencyUs: 0,
    routingLatencyUs: 0,
    snapshotRefreshIntervalUs: 0,
    horizonUs: Number.POSITIVE_INFINITY,
    recordRequestIds: true,
    ...o.setup,
  });
}

/** Runs a cluster to its end, checks conservation, and builds its result with per-request records. */
export function resultOf(sim: ClusterSimulator): SimulationResult {
  sim.run();
  sim.checkConservation();
  return buildResult(sim, { sloTtftUs: 0, sloE2eUs: 0, includeRequests: true });
}
