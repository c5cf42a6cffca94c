import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type FlowControlConfig, type SimulationResult, simulate } from '@blis/cluster';
import { type Reference, type RunComparison, compareRun, loadReference } from './parity-compare.js';

// The BLIS HEAD flow-control reference runs (fixtures/blis-flow-control/README.md), shared by
// flow-control-parity.test.ts and `pnpm parity`.

export const FLOW_DIR = fileURLToPath(new URL('./fixtures/blis-flow-control/', import.meta.url));

export interface FlowRun {
  name: string;
  flowControl: Partial<FlowControlConfig>;
  /** result.json fields defined otherwise here, with why. */
  skip?: Record<string, string>;
}

/** BLIS counts as injected only the requests that reached an instance and stayed there. */
const INJECTED = { injected_requests: 'ours counts every arrival; BLIS leaves out requests the gateway turned away, expired or evicted' };
/** BLIS's latency distributions include evicted requests' first tokens and ITLs; ours are of completed requests. */
const EVICTED_LATENCIES = Object.fromEntries(
  ['ttft_mean_ms', 'ttft_p90_ms', 'ttft_p95_ms', 'ttft_p99_ms', 'itl_mean_ms', 'itl_p90_ms', 'itl_p95_ms', 'scheduling_delay_p99_ms'].map((k) => [k, 'BLIS counts evicted requests in it; ours only completed ones']),
);

export const FLOW_RUNS: readonly FlowRun[] = [
  { name: 'util-fifo', flowControl: { saturationDetector: 'utilization' } },
  { name: 'conc-priority-rr', flowControl: { saturationDetector: 'concurrency', maxConcurrency: 32, dispatchOrder: 'priority', fairnessPolicy: 'round-robin' } },
  {
    name: 'util-slo-deadline',
    flowControl: {
      saturationDetector: 'utilization',
      dispatchOrder: 'slo-deadline',
      sloTargetsUs: { critical: 100_000, standard: 400_000, batch: 2_000_000, sheddable: 3_000_000 },
      usageLimitThreshold: 0.6,
      perBandCapacity: 150,
    },
    skip: INJECTED,
  },
  { name: 'util-ttl-shed', flowControl: { saturationDetector: 'utilization', requestTtlUs: 1_500_000, maxGatewayQueueDepth: 120, queueShedding: true }, skip: INJECTED },
  { name: 'conc-evict', flowControl: { saturationDetector: 'concurrency', maxConcurrency: 24, inFlightEviction: true, dispatchTickIntervalUs: 5000 }, skip: { ...INJECTED, ...EVICTED_LATENCIES } },
];

export function runOf(run: FlowRun): SimulationResult {
  return simulate({
    seed: 42,
    numInstances: 2,
    model: 'meta-llama/llama-3.1-8b-instruct',
    hardware: 'H100',
    tp: 1,
    latencyModel: 'trained-physics',
    totalKVBlocks: 7463,
    blockSizeTokens: 16,
    maxNumSeqs: 256,
    maxNumBatchedTokens: 2048,
    longPrefillTokenThreshold: 0,
    routing: { policy: 'round-robin' },
    workload: { kind: 'trace', path: `${FLOW_DIR}flow1500.yaml`, dataPath: `${FLOW_DIR}flow1500.csv` },
    horizonUs: 60_000_000,
    includeRequests: true,
    flowControl: { enabled: true, ...run.flowControl },
  });
}

/** BLIS writes an evicted request with its first token but no E2E. */
export const isEvicted = (r: Reference['requests'][number]) => r.e2eMs === 0;

export interface FlowComparison {
  comparison: RunComparison;
  result: SimulationResult;
  reference: Reference;
  /** BLIS's gateway lines, and ours in the same buckets. */
  gateway: { blis: Record<string, number>; ours: Record<string, number> };
}

/** Replays a flow-control run and compares its completed requests, aggregate and gateway counts. */
export function compareFlowRun(run: FlowRun): FlowComparison {
  const reference = loadReference({ name: run.name, numInstances: 2, dir: FLOW_DIR });
  const gw = JSON.parse(readFileSync(`${FLOW_DIR}${run.name}/gateway.json`, 'utf8')) as Record<string, number>;
  const result = runOf(run);
  const completed = { ...reference, requests: reference.requests.filter((q) => !isEvicted(q)) };
  const comparison = compareRun(run.name, completed, result.requests ?? [], result as unknown as Record<string, unknown>, { skip: run.skip });
  const g = result.gateway!;
  const ours = { gateway_queue_depth: g.still_queued, gateway_queue_shed: g.queue_shed, gateway_queue_rejected: g.queue_rejected, gateway_evicted: g.evicted_requests, gateway_expired: g.expired_requests };
  return { comparison, result, reference, gateway: { blis: gw, ours } };
}
