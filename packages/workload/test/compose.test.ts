import { describe, expect, it } from 'vitest';
import { composeSpecs } from '../src/index.js';
import { mixedSloClassIssues } from '../src/internal.js';

// BLIS's compose worked by hand (yaml.v3's way of writing the values: go-yaml.test.ts).

const client = (id: string, rate_fraction: number, extra: Record<string, unknown> = {}) => ({
  id,
  slo_class: 'standard',
  rate_fraction,
  arrival: { process: 'poisson' },
  input_distribution: { type: 'constant', params: { value: 10 } },
  output_distribution: { type: 'constant', params: { value: 5 } },
  ...extra,
});

describe('composeSpecs', () => {
  it('sums the rates and scales each client by its spec\'s share: 30 and 10 req/s give fractions ×0.75 and ×0.25', () => {
    const a = { version: '2', seed: 3, category: 'language', aggregate_rate: 30, num_requests: 9, clients: [client('a1', 0.5), client('a2', 0.5)] };
    const b = { version: '2', category: 'reasoning', aggregate_rate: 10, clients: [client('b1', 1)] };
    const c = composeSpecs([a, b]);
    expect(c.spec.aggregate_rate).toBe(40);
    expect(c.spec.clients.map((x) => x.rate_fraction)).toEqual([0.375, 0.375, 0.25]);
    // Each client keeps its rate: 0.375 × 40 = 15 req/s, as 0.5 × 30.
    expect(c.spec.category).toBe('language');
    expect(c.spec.seed).toBe(0);
    expect(c.dropped).toEqual([['seed', 'num_requests'], ['category']]);
    expect(c.yaml.startsWith('version: "2"\nseed: 0\ncategory: language\nclients:\n    - id: a1\n      tenant_id: ""\n      slo_class: standard\n      rate_fraction: 0.375\n')).toBe(true);
    expect(c.yaml.endsWith('aggregate_rate: 40\n')).toBe(true);
  });

  it('with a total rate of 0 concatenates the clients unchanged', () => {
    const a = { version: '2', aggregate_rate: 0, clients: [client('a', 0.3)] };
    const c = composeSpecs([a, a]);
    expect(c.spec.clients.map((x) => x.rate_fraction)).toEqual([0.3, 0.3]);
    expect(c.spec.aggregate_rate).toBe(0);
  });

  it('upgrades a v1 spec first: interactive and realtime become standard and critical', () => {
    const v1 = { version: '1', aggregate_rate: 1, clients: [client('x', 1, { slo_class: 'interactive' }), client('y', 1, { slo_class: 'realtime' })] };
    expect(composeSpecs([v1]).spec.clients.map((x) => x.slo_class)).toEqual(['standard', 'critical']);
  });

  it('writes Go\'s zero values for fields without omitempty and sorts params as yaml.v3 does', () => {
    const c = composeSpecs([{ aggregate_rate: 2, clients: [{ id: 'z', rate_fraction: 1, input_distribution: { type: 'gaussian', params: { std_dev: 1, mean: 2, min: 0, max: 9 } } }] }]);
    expect(c.yaml).toContain('      arrival:\n        process: ""\n');
    expect(c.yaml).toContain('        params:\n            max: 9\n            mean: 2\n            min: 0\n            std_dev: 1\n');
    expect(c.yaml).toContain('      output_distribution:\n        type: ""\n      streaming: false\n');
  });
});

describe('mixedSloClassIssues', () => {
  it('a client without a class beside one with a class is refused, as BLIS refuses it', () => {
    expect(mixedSloClassIssues([{ slo_class: 'batch' }, {}])[0].path).toEqual(['clients', 1, 'slo_class']);
    expect(mixedSloClassIssues([{}, { slo_class: '' }])).toEqual([]);
    expect(mixedSloClassIssues([{ slo_class: 'batch' }, { slo_class: 'critical' }])).toEqual([]);
  });
});
