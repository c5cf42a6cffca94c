import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type SimulationConfigInput, simulate } from '../src/index.js';

// Direction on BLIS's own demo (examples/workloads/prefix-affinity-demo.yaml: 80% of requests
// share a 256-token system prompt): routing that knows about prefixes reuses more KV cache than
// round-robin on 4 instances (the router-side prefix-affinity index), or no less (the scorers
// reading the instances' caches, once every instance holds the one shared prompt). Only the
// direction is asserted, not the size of the effect.

const DEMO = join(import.meta.dirname, '..', '..', '..', 'examples', 'workloads', 'prefix-affinity-demo.yaml');
const hitRate = (routing: SimulationConfigInput['routing']) => simulate({ numInstances: 4, routing, workload: { kind: 'spec', path: DEMO } }).cache_hit_rate;

describe('prefix-affinity-demo.yaml on 4 instances', () => {
  const roundRobin = hitRate({ policy: 'round-robin' });

  it('weighted prefix-affinity:5,queue-depth:1 (the demo\'s own command) beats round-robin', () => {
    expect(hitRate({ policy: 'weighted', scorers: [{ name: 'prefix-affinity', weight: 5 }, { name: 'queue-depth', weight: 1 }] })).toBeGreaterThan(roundRobin);
  });

  it('precise-prefix-cache alone, which reads the instances\' caches, reuses no less than round-robin', () => {
    // While the router's view of the caches is still the empty one (BLIS's 50 ms cache-signal
    // delay) every cache score ties and BLIS's random tie-break spreads the requests (500/s) over
    // all four instances, so each learns the shared prompt, as under round-robin; from then on
    // the prompt's score ties everywhere and the draw decides. Each instance misses the prompt
    // once either way: the same reuse here, never less. (Ties to the lowest position kept the
    // early requests on instance 0 alone, which is why this once beat round-robin.)
    expect(hitRate({ policy: 'weighted', scorers: [{ name: 'precise-prefix-cache', weight: 1 }] })).toBeGreaterThanOrEqual(roundRobin);
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
