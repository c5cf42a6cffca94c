import { runInstance, ArrayRequestSource } from '@blis/engine';
import { describe, expect, it } from 'vitest';
import { LLAMA8B, buildCluster, hashesFor, resultOf, spec } from './helpers.js';
import { flowControlSettings } from '../src/internal.js';

describe('cluster scenarios (seed 001 section 10)', () => {
  it('routes a request to the replica that holds its cached prefix', () => {
    // Request 0 warms instance 1 (round-robin would alternate); request 2 shares its 40-block
    // prefix and must follow it under precise prefix-cache routing.
    const shared = (i: number, n: number) => hashesFor(n, 'system-prompt', 40, `u${i}`);
    const specs = [
      spec(0, 0, 64, 4),
      spec(1, 1000, 700, 4, { blockHashes: shared(1, 700) }),
      spec(2, 500_000, 700, 4, { blockHashes: shared(2, 700) }),
    ];
    const sim = buildCluster(specs, {
      instances: 3,
      routing: 'weighted',
      routingParams: { scorers: [{ name: 'precise-prefix-cache', weight: 1 }] },
    });
    const r = resultOf(sim);
    const by = new Map(r.requests!.map((x) => [x.request_id, x]));
    expect(by.get('2')!.handled_by).toBe(by.get('1')!.handled_by);
    expect(by.get('2')!.cache_hit_blocks).toBe(40);
  });

  it('serves realtime before batch with a priority-aware scheduler', () => {
    // A burst on one instance that can run one request at a time: the critical request that
    // arrives last is scheduled first among the waiting ones under priority-fcfs, last under fcfs.
    const specs = [
      spec(0, 0, 300, 20, { sloClass: 'batch' }),
      spec(1, 10, 300, 20, { sloClass: 'batch' }),
      spec(2, 20, 300, 20, { sloClass: 'batch' }),
      spec(3, 30, 300, 20, { sloClass: 'critical' }),
    ];
    const order = (scheduler: string) => {
      const r = resultOf(buildCluster(specs, { maxNumSeqs: 1, priority: 'slo-class', scheduler }));
      return [...r.requests!].sort((a, b) => a.scheduling_delay_ms + a.arrival_ms - (b.scheduling_delay_ms + b.arrival_ms)).map((x) => x.request_id);
    };
    expect(order('priority-fcfs')).toEqual(['0', '3', '1', '2']);
    expect(order('fcfs')).toEqual(['0', '1', '2', '3']);
  });

  it('gives exactly the single-instance result with one instance', () => {
    const specs = Array.from({ length: 300 }, (_, i) => spec(i, i * 37_000, 100 + ((i * 7919) % 3000), 1 + ((i * 104729) % 200)));
    const cluster = resultOf(buildCluster(specs, { instances: 1, kvBlocks: 900 }));
    const single = runInstance(
      { index: 0, id: 'instance_0', latency: LLAMA8B, totalKVBlocks: 900, blockSizeTokens: 16, maxNumSeqs: 256, maxNumBatchedTokens: 2048, longPrefillTokenThreshold: 0, preemptionPolicy: 'fcfs', checkInvariants: true },
      new ArrayRequestSource(specs),
    );
    const m = single.instance.metrics;
    expect(cluster.completed_requests).toBe(m.completed);
    expect(cluster.preemption_count).toBe(m.preemptions);
    expect(cluster.preemption_count).toBeGreaterThan(0);
    const ttft = new Map<string, number>();
    for (let i = 0; i < m.completed; i++) ttft.set(String(m.requestIndex.get(i)), m.ttftUs.get(i));
    for (const rec of cluster.requests!) expect(Math.round(rec.ttft_ms * 1000)).toBe(ttft.get(rec.request_id));
    expect(cluster.vllm_estimated_duration_s).toBe(single.endUs / 1e6);
  });

  it('shows a higher cache hit rate for prefix-affinity routing than round-robin on shared prompts', () => {
    const specs = Array.from({ length: 200 }, (_, i) => {
      const group = `g${i % 3}`;
      const n = 256 + 64 + (i % 5) * 16;
      return spec(i, i * 2000, n, 16, { prefixGroup: group, blockHashes: hashesFor(n, group, 16, `u${i}`) });
    });
    const rr = resultOf(buildCluster(specs, { instances: 4, routing: 'round-robin' }));
    const pa = resultOf(
      buildCluster(specs, { instances: 4, routing: 'weighted', routingParams: { scorers: [{ name: 'prefix-affinity', weight: 5 }, { name: 'queue-depth', weight: 1 }] } }),
    );
    expect(pa.cache_hit_rate).toBeGreaterThan(rr.cache_hit_rate);
  });

  it('rejects everything under reject-all and counts it (INV-1)', () => {
    const specs = Array.from({ length: 20 }, (_, i) => spec(i, i * 1000, 100, 5));
    const r = resultOf(buildCluster(specs, { instances: 2, admission: 'reject-all' }));
    expect(r.rejected_requests).toBe(20);
    expect(r.completed_requests).toBe(0);
    expect(r.injected_requests).toBe(20);
  });

  it('token bucket admits by input-token cost and refills over time', () => {
    // capacity 1000 tokens, refill 1000 tokens/s, each request costs 400: at t=0 two fit, the
    // third is rejected; one second later the bucket is full again.
    const specs = [spec(0, 0, 400, 2), spec(1, 0, 400, 2), spec(2, 0, 400, 2), spec(3, 1_000_000, 400, 2)];
    const r = resultOf(buildCluster(specs, { admission: 'token-bucket', admissionParams: { capacity: 1000, refillRate: 1000 } }));
    expect(r.rejected_requests).toBe(1);
    expect(r.completed_requests).toBe(3);
  });

  it('least-loaded spreads a burst evenly and reports load fairness', () => {
    const specs = Array.from({ length: 40 }, (_, i) => spec(i, 0, 200, 50));
    const r = resultOf(buildCluster(specs, { instances: 4, routing: 'least-loaded' }));
    expect(Object.values(r.target_distribution)).toEqual([10, 10, 10, 10]);
    expect(r.load_fairness.jain_index).toBe(1);
    const busy = resultOf(buildCluster(specs, { instances: 4, routing: 'always-busiest' }));
    expect(busy.load_fairness.jain_index).toBeLessThan(0.5);
  });

  it('flow control holds requests at the gateway and sheds beyond the queue limit', () => {
    // Arrivals 2 ms apart: requests arriving at one tick all pass before any instance has
    // queued one (BLIS and GIE alike), so the gateway is seen filling over time.
    const specs = Array.from({ length: 60 }, (_, i) => spec(i, i * 2000, 1500, 30, { sloClass: i % 2 === 0 ? 'critical' : 'batch' }));
    const sim = buildCluster(specs, {
      instances: 2,
      priority: 'slo-class',
      setup: { flowControl: flowControlSettings({ saturationDetector: 'utilization', maxGatewayQueueDepth: 20, queueShedding: true }) },
    });
    const r = resultOf(sim);
    expect(r.gateway).not.toBeNull();
    expect(r.completed_requests + r.rejected_requests).toBe(60);
    expect(r.gateway!.delay_p99_ms).toBeGreaterThan(0);
    // Critical newcomers displace waiting batch requests; batch newcomers to a full queue are
    // turned away, since a request never displaces its own band.
    expect(r.gateway!.queue_shed).toBeGreaterThan(0);
    expect(r.gateway!.queue_rejected).toBeGreaterThan(0);
    expect(r.gateway!.max_band_depth).toBeLessThanOrEqual(20);
    const done = r.requests!.map((x) => specs[Number(x.request_id)].sloClass);
    expect(done.filter((c) => c === 'critical').length).toBeGreaterThan(done.filter((c) => c === 'batch').length);
  });
});
