import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type SimulationConfigInput, simulate } from '../src/index.js';

// Direction on BLIS's own demo (examples/workloads/prefix-affinity-demo.yaml: 80% of requests
// share a 256-token system prompt): routing that knows about prefixes reuses more KV cache than
// round-robin on 4 instances. Only the direction is asserted, not the size of the effect.

const DEMO = join(import.meta.dirname, '..', '..', '..', 'examples', 'workloads', 'prefix-affinity-demo.yaml');
const hitRate = (routing: SimulationConfigInput['routing']) => simulate({ numInstances: 4, routing, workload: { kind: 'spec', path: DEMO } }).cache_hit_rate;

describe('prefix-affinity-demo.yaml on 4 instances', () => {
  const roundRobin = hitRate({ policy: 'round-robin' });

  it('weighted prefix-affinity:5,queue-depth:1 (the demo\'s own command) beats round-robin', () => {
    expect(hitRate({ policy: 'weighted', scorers: [{ name: 'prefix-affinity', weight: 5 }, { name: 'queue-depth', weight: 1 }] })).toBeGreaterThan(roundRobin);
  });

  it('so does precise-prefix-cache alone, which reads the instances\' caches', () => {
    expect(hitRate({ policy: 'weighted', scorers: [{ name: 'precise-prefix-cache', weight: 1 }] })).toBeGreaterThan(roundRobin);
  });

  it('the default profile (precise-prefix-cache:2, queue-depth:1, kv-utilization:1) reuses no less than round-robin', () => {
    // Every instance learns the one shared prompt within the first few requests, after which the
    // cache scorer ties and load decides: the default trades no hits for balance here.
    expect(hitRate({ policy: 'weighted' })).toBeGreaterThanOrEqual(roundRobin);
  });

  it('load-only weighted (queue-depth:1) does not', () => {
    expect(hitRate({ policy: 'weighted', scorers: [{ name: 'queue-depth', weight: 1 }] })).toBeLessThanOrEqual(roundRobin);
  });
});
