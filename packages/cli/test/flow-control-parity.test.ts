import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type FlowControlConfig, type SimulationResult, simulate } from '@blis/cluster';
import { describe, expect, it } from 'vitest';
import { type Reference, compareRun, formatComparison, isExactMatch, loadReference } from './parity-compare.js';

// Request-level parity of gateway flow control with BLIS HEAD (f90a1e3a), on an overloaded pair
// of instances (fixtures/blis-flow-control/README.md): every detector, every dispatch order,
// per-band capacity with head-of-line gating, TTL, shedding and in-flight eviction.

const DIR = fileURLToPath(new URL('./fixtures/blis-flow-control/', import.meta.url));

interface FlowRun {
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

const RUNS: readonly FlowRun[] = [
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

function runOf(run: FlowRun): SimulationResult {
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
    workload: { kind: 'trace', path: `${DIR}flow1500.yaml`, dataPath: `${DIR}flow1500.csv` },
    horizonUs: 60_000_000,
    includeRequests: true,
    flowControl: { enabled: true, ...run.flowControl },
  });
}

/** BLIS writes an evicted request with its first token but no E2E. */
const isEvicted = (r: Reference['requests'][number]) => r.e2eMs === 0;

describe('flow control: request-level parity with BLIS HEAD', () => {
  for (const run of RUNS) {
    it(run.name, () => {
      const ref = loadReference({ name: run.name, numInstances: 2, dir: DIR });
      const gw = JSON.parse(readFileSync(`${DIR}${run.name}/gateway.json`, 'utf8')) as Record<string, number>;
      const r = runOf(run);
      const completed = { ...ref, requests: ref.requests.filter((q) => !isEvicted(q)) };
      const cmp = compareRun(run.name, completed, r.requests ?? [], r as unknown as Record<string, unknown>, { skip: run.skip });
      expect(isExactMatch(cmp), formatComparison(cmp)).toBe(true);

      // The gateway's counts, bucket by bucket.
      const g = r.gateway!;
      expect({ depth: g.still_queued, shed: g.queue_shed, rejected: g.queue_rejected, evicted: g.evicted_requests, expired: g.expired_requests }).toEqual({
        depth: gw.gateway_queue_depth,
        shed: gw.gateway_queue_shed,
        rejected: gw.gateway_queue_rejected,
        evicted: gw.gateway_evicted,
        expired: gw.gateway_expired,
      });

      // Evicted requests: the same ones, evicted from the same instance after the same first token.
      const evicted = new Map((r.unfinished_requests ?? []).filter((u) => u.outcome === 'evicted').map((u) => [u.request_id, u]));
      const refEvicted = ref.requests.filter(isEvicted);
      expect(evicted.size).toBe(refEvicted.length);
      for (const q of refEvicted) {
        const u = evicted.get(q.id);
        expect(u, `request ${q.id} evicted in BLIS`).toBeDefined();
        expect([u!.handled_by, Math.round((u!.ttft_ms ?? 0) * 1000), Math.round((u!.scheduling_delay_ms ?? 0) * 1000)]).toEqual([
          q.handledBy,
          Math.round(q.ttftMs * 1000),
          Math.round(q.schedulingDelayMs * 1000),
        ]);
      }

      // Every other request BLIS has no record of was turned away, displaced or expired here.
      const turnedAway = (r.unfinished_requests ?? []).filter((u) => u.outcome === 'shed' || u.outcome === 'expired');
      expect(turnedAway.length).toBe(gw.gateway_queue_rejected + gw.gateway_queue_shed + gw.gateway_expired);
      expect(r.completed_requests + turnedAway.length + evicted.size).toBe(1500);
    }, 60_000);
  }
});
