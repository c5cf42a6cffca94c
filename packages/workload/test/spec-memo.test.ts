import { describe, expect, it } from 'vitest';
import { WorkloadSpecError, parseWorkloadSpec } from '@blis/workload';
import { SpecMemo } from '../src/spec-memo.js';

const spec = () => ({
  version: '2',
  aggregate_rate: 10,
  num_requests: 20,
  clients: [{ id: 'c', rate_fraction: 1, arrival: { process: 'poisson' }, input_distribution: { type: 'constant', params: { value: 64 } }, output_distribution: { type: 'constant', params: { value: 8 } } }],
});

describe('validated specs remembered by their JSON text', () => {
  it('answers a repeated spec with an equal, separate copy that callers may change', () => {
    const first = parseWorkloadSpec(spec());
    (first.clients[0] as { id: string }).id = 'changed';
    const second = parseWorkloadSpec(spec());
    const third = parseWorkloadSpec(spec());
    expect(second.clients[0].id).toBe('c');
    expect(third).toEqual(second);
    expect(third).not.toBe(second);
    expect(third.clients[0]).not.toBe(second.clients[0]);
  });

  it('never remembers a refusal', () => {
    const bad = { ...spec(), aggregate_rate: -1 };
    expect(() => parseWorkloadSpec(bad)).toThrow(WorkloadSpecError);
    expect(() => parseWorkloadSpec(bad)).toThrow(WorkloadSpecError);
  });

  it('keys only what JSON states exactly', () => {
    const memo = new SpecMemo<unknown>();
    expect(memo.keyOf({ a: [1, 'x', null, { b: true }] })).toBe('{"a":[1,"x",null,{"b":true}]}');
    for (const inexact of [{ a: Number.POSITIVE_INFINITY }, { a: Number.NaN }, { a: -0 }, { a: undefined }, { a: new Date(0) }, { a: new Map() }, { a: [undefined] }, { a: () => 1 }])
      expect(memo.keyOf(inexact)).toBeUndefined();
    // Infinity and null would print alike: neither may answer for the other.
    expect(memo.keyOf({ a: null })).toBe('{"a":null}');
    // A long spec (inline values) is not remembered, so 64 entries stay small.
    expect(memo.keyOf({ values: Array.from({ length: 20_000 }, (_, i) => i) })).toBeUndefined();
    expect(memo.keyOf({ values: Array.from({ length: 2_000 }, (_, i) => i) })).toBeDefined();
  });

  it('holds a bounded number of entries, oldest out first', () => {
    const memo = new SpecMemo<{ n: number }>();
    for (let n = 0; n < 100; n++) memo.set(`k${n}`, { n });
    expect(memo.get('k0')).toBeUndefined();
    expect(memo.get('k99')).toEqual({ n: 99 });
    expect(memo.get('k36')).toEqual({ n: 36 });
    expect(memo.get('k35')).toBeUndefined();
  });
});
