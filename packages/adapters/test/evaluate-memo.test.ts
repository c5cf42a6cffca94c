import { describe, expect, it } from 'vitest';
import { evaluate } from '../src/index.js';
import { resolveCandidate } from '../src/evaluate/candidate.js';
import { ComponentMemo } from '../src/evaluate/component-memo.js';
import { InvalidCandidateError } from '../src/evaluate/candidate-error.js';
import { evaluatedWorkloads } from '../src/evaluate/workload-cache.js';

// What `blis evaluate` remembers between requests (policy texts, generated workloads) must
// change nothing but the time: a changed input misses, a hit answers as a first ask would, and
// nothing a caller does to one answer reaches the next.

const routing = (w: number) => `policy: weighted\nscorers:\n  - {name: prefix-affinity, weight: 1}\n  - {name: queue-depth, weight: ${w}}\n`;

describe('ComponentMemo', () => {
  it('misses on another loader, component or text; a hit is an equal, independent copy', () => {
    const memo = new ComponentMemo();
    const loader = {};
    memo.set(loader, 'routing', 'a', { patch: { routing: { policy: 'weighted', params: {}, scorers: [{ name: 'queue-depth', weight: 1 }] } } });
    expect(memo.get({}, 'routing', 'a')).toBeUndefined();
    expect(memo.get(loader, 'admission', 'a')).toBeUndefined();
    expect(memo.get(loader, 'routing', 'a ')).toBeUndefined();
    const hit = memo.get(loader, 'routing', 'a') as { patch: { routing: { scorers: { weight: number }[] } } };
    hit.patch.routing.scorers[0].weight = 99;
    expect(memo.get(loader, 'routing', 'a')).toEqual({ patch: { routing: { policy: 'weighted', params: {}, scorers: [{ name: 'queue-depth', weight: 1 }] } } });
  });
});

describe('resolveCandidate of policy texts, asked again', () => {
  it('gives the patch of the first ask, its own copy, and another text its own patch', () => {
    const first = resolveCandidate({ kind: 'components', components: { routing: routing(2), admission: 'policy: always-admit\n' } });
    const expected = structuredClone(first.patch);
    (first.patch.routing as { scorers: { weight: number }[] }).scorers[1].weight = 1000;
    const again = resolveCandidate({ kind: 'components', components: { routing: routing(2), admission: 'policy: always-admit\n' } });
    expect(again.patch).toEqual(expected);
    const other = resolveCandidate({ kind: 'components', components: { routing: routing(3) } });
    expect((other.patch.routing as { scorers: { weight: number }[] }).scorers[1].weight).toBe(3);
    expect(other.patch.admission).toBeUndefined();
  });

  it('gives the faults of a bad text again, located as the first time', () => {
    const bad = { kind: 'components' as const, components: { routing: 'policy: weighted\nscorers:\n  - name: nope\n    weight: 1\n' } };
    const faults = () => {
      try {
        resolveCandidate(bad);
      } catch (e) {
        if (e instanceof InvalidCandidateError) return e.issues;
      }
      throw new Error('expected an InvalidCandidateError');
    };
    const first = faults();
    expect(first[0].where).toMatch(/^components\.routing:3 /);
    const snapshot = structuredClone(first);
    first[0].where = 'changed';
    expect(faults()).toEqual(snapshot);
  });
});

describe('evaluate: spec workloads generated once', () => {
  const scenario = (seed: number) => ({
    id: `s${seed}`,
    workload: { kind: 'spec', spec: { version: '2', aggregate_rate: 60, num_requests: 120, clients: [{ id: 'c', rate_fraction: 1, prefix_group: 'p', prefix_length: 64, input_distribution: { type: 'gaussian', params: { mean: 300, std_dev: 80, min: 16, max: 1024 } }, output_distribution: { type: 'exponential', params: { mean: 60, max: 300 } } }] } },
    seeds: [seed],
  });
  const request = (seed: number) => ({
    protocol: 'blis-eval/1',
    candidate: { kind: 'components', components: { routing: routing(1) } },
    base_config: { numInstances: 3 },
    scenarios: [scenario(seed)],
    objectives: { weights: { p99_ttft: 1, throughput: 1 } },
    trace: 'summary',
  });

  it('answers a repeated request from the replayed stream with the same bytes; another seed misses', async () => {
    const misses = evaluatedWorkloads.misses;
    const hits = evaluatedWorkloads.hits;
    const first = JSON.stringify(await evaluate(request(9001)));
    expect(evaluatedWorkloads.misses).toBe(misses + 1);
    const second = JSON.stringify(await evaluate(request(9001)));
    expect(evaluatedWorkloads.hits).toBe(hits + 1);
    expect(second).toBe(first);
    const other = await evaluate(request(9002));
    expect(evaluatedWorkloads.misses).toBe(misses + 2);
    expect(other.status).toBe('ok');
    expect(JSON.stringify(other.metrics)).not.toBe(JSON.stringify(JSON.parse(first).metrics));
  });
});
