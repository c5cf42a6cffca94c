import { describe, expect, it } from 'vitest';
import { simulate } from '../src/index.js';

// Regression: with age-dependent priorities and priority preemption, running requests kept the
// score they had when admitted while requeued ones were re-scored every step, so victims were
// chosen on stale scores and a tight cache evicted requests back and forth forever.
describe('priority preemption with age-dependent priorities', () => {
  const base = {
    seed: 42,
    numInstances: 2,
    totalKVBlocks: 1500,
    preemptionPolicy: 'priority' as const,
    workload: { kind: 'synthetic' as const, numRequests: 100, rate: 40 },
    // A bound in simulated time, so a regression fails instead of running forever.
    horizonUs: 600_000_000,
  };

  it.each(['slo-based', 'inverted-slo'])('completes every request under KV pressure with %s', (priority) => {
    const r = simulate({ ...base, priority: { policy: priority, params: {} } });
    expect(r.completed_requests).toBe(100);
    expect(r.preemption_count).toBeGreaterThan(0);
  });
});
