import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RequestSource, RequestSpec } from '@blis/engine';
import { type LoadedSpec, type RequestSourceOptions, type WorkloadSpecInput, createRequestSource, parseWorkloadSpec } from '@blis/workload';
import { isOpenLoopSpec } from '@blis/workload/internal';
import { specArb } from '@blis/workload/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';
import { type SimulationConfigInput, SimulationConfigSchema, runPrepared, simulate } from '../src/index.js';
import { WorkloadMemo, prepareValidated } from '../src/internal.js';
import { exactKey } from '../src/workload-memo/exact-key.js';

// A replayed stream must be the stream a fresh source gives, peek for peek, request for
// request, and each replay must be the caller's own to change.

const constant = (value: number) => ({ type: 'constant' as const, params: { value } });
const gaussian = { type: 'gaussian' as const, params: { mean: 200, std_dev: 60, min: 20, max: 600 } };

function spec(overrides: Partial<WorkloadSpecInput> = {}): LoadedSpec {
  return parseWorkloadSpec({
    version: '2',
    seed: 7,
    aggregate_rate: 50,
    num_requests: 60,
    clients: [
      { id: 'a', rate_fraction: 0.5, prefix_group: 'sys', prefix_length: 40, input_distribution: gaussian, output_distribution: constant(8) },
      // Open-loop sessions whose rounds accumulate: requests carrying KV hashes beside prompt hashes.
      { id: 's', rate_fraction: 0.5, closed_loop: false, input_distribution: gaussian, output_distribution: constant(6), reasoning: { multi_turn: { max_rounds: 3, think_time_us: 1000, context_growth: 'accumulate' } } },
    ],
    ...overrides,
  });
}

/** Every peek and request of a source, read as the simulator reads it. */
function read(source: RequestSource): { peeks: number[]; requests: RequestSpec[] } {
  const peeks: number[] = [];
  const requests: RequestSpec[] = [];
  for (let t = source.peekArrivalUs(); t !== Number.POSITIVE_INFINITY; t = source.peekArrivalUs()) {
    peeks.push(t);
    requests.push(source.next()!);
  }
  expect(source.next()).toBeUndefined();
  return { peeks, requests };
}

const plain = (s: { peeks: number[]; requests: RequestSpec[] }) => ({
  peeks: s.peeks,
  requests: s.requests.map((r) => ({ ...r, blockHashes: Array.from(r.blockHashes), kvBlockHashes: r.kvBlockHashes === undefined ? undefined : Array.from(r.kvBlockHashes) })),
});

describe('WorkloadMemo', () => {
  it('replays, on a miss and on a hit, exactly the stream a fresh source gives', () => {
    const s = spec();
    const opts: RequestSourceOptions = { blockSizeTokens: 16 };
    const fresh = read(createRequestSource(s, opts));
    expect(fresh.requests.some((r) => r.kvBlockHashes !== undefined)).toBe(true);
    const memo = new WorkloadMemo();
    const first = read(memo.source(s, opts, () => createRequestSource(s, opts)));
    const second = read(memo.source(spec(), { ...opts }, () => createRequestSource(s, opts)));
    expect([memo.misses, memo.hits]).toEqual([1, 1]);
    expect(plain(first)).toEqual(plain(fresh));
    expect(plain(second)).toEqual(plain(fresh));
    // A prompt's hashes stay the leading view of its KV hashes, as generated.
    const r = second.requests.find((x) => x.kvBlockHashes !== undefined)!;
    expect((r.blockHashes as Float64Array).buffer).toBe((r.kvBlockHashes as Float64Array).buffer);
  });

  it('hands out copies: changing one replay leaves the next as generated', () => {
    const s = spec();
    const memo = new WorkloadMemo();
    const fresh = plain(read(createRequestSource(s)));
    const first = read(memo.source(s, {}, () => createRequestSource(s)));
    for (const r of first.requests) {
      r.inputTokens = -1;
      (r.blockHashes as Float64Array).fill(0);
      if (r.kvBlockHashes !== undefined) (r.kvBlockHashes as Float64Array).fill(0);
    }
    expect(plain(read(memo.source(s, {}, () => createRequestSource(s))))).toEqual(fresh);
    expect(memo.hits).toBe(1);
  });

  it.each<[string, LoadedSpec, RequestSourceOptions]>([
    ['another seed', spec({ seed: 8 }), {}],
    ['another rate', spec({ aggregate_rate: 51 }), {}],
    ['another block size', spec(), { blockSizeTokens: 32 }],
    ['another request cap', spec(), { maxRequests: 59 }],
    ['another horizon', spec(), { horizonUs: 900_000 }],
    ['another timeout', spec(), { timeoutUs: 5 }],
    ['another default SLO class', spec(), { defaultSloClass: '' }],
  ])('misses on %s, and gives that stream', (_what, changed, opts) => {
    const memo = new WorkloadMemo();
    const s = spec();
    read(memo.source(s, {}, () => createRequestSource(s)));
    const got = read(memo.source(changed, opts, () => createRequestSource(changed, opts)));
    expect([memo.misses, memo.hits]).toEqual([2, 0]);
    expect(plain(got)).toEqual(plain(read(createRequestSource(changed, opts))));
  });

  it('keeps no closed-loop stream, no stream without a cap, none above its request bound', () => {
    const memo = new WorkloadMemo({ maxRequests: 50 });
    const closed = parseWorkloadSpec({ version: '2', seed: 1, aggregate_rate: 10, num_requests: 10, clients: [{ id: 'c', rate_fraction: 1, input_distribution: constant(10), output_distribution: constant(4), reasoning: { multi_turn: { max_rounds: 2 } } }] });
    expect(isOpenLoopSpec(closed)).toBe(false);
    let made = 0;
    const live = (s: LoadedSpec, o: RequestSourceOptions = {}) => () => {
      made++;
      return createRequestSource(s, o);
    };
    memo.source(closed, {}, live(closed));
    const uncapped = parseWorkloadSpec({ version: '2', seed: 1, aggregate_rate: 10, horizon: 1_000_000, clients: [{ id: 'c', rate_fraction: 1, input_distribution: constant(10), output_distribution: constant(4) }] });
    memo.source(uncapped, { horizonUs: 1_000_000 }, live(uncapped, { horizonUs: 1_000_000 }));
    memo.source(spec(), {}, live(spec()));
    expect(made).toBe(3);
    expect([memo.size, memo.hits, memo.misses]).toEqual([0, 0, 0]);
  });

  it('keeps no stream of a spec that reads a file when opened (an empirical CSV may change between runs)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'memo-'));
    const csv = join(dir, 'lengths.csv');
    const withFile = (): LoadedSpec => spec({ clients: [{ id: 'a', rate_fraction: 1, input_distribution: { type: 'empirical', params: { file: csv } }, output_distribution: constant(4) }] });
    const memo = new WorkloadMemo();
    writeFileSync(csv, 'tokens\n100\n');
    const first = read(memo.source(withFile(), {}, () => createRequestSource(withFile())));
    writeFileSync(csv, 'tokens\n300\n');
    const second = read(memo.source(withFile(), {}, () => createRequestSource(withFile())));
    expect(memo.size).toBe(0);
    expect(first.requests[0].inputTokens).toBe(100);
    expect(second.requests[0].inputTokens).toBe(300);
  });

  it('holds at most maxEntries streams and maxBytes, dropping the oldest', () => {
    const bySeed = (seed: number) => spec({ seed });
    const few = new WorkloadMemo({ maxEntries: 2 });
    for (const seed of [1, 2, 3]) few.source(bySeed(seed), {}, () => createRequestSource(bySeed(seed)));
    expect(few.size).toBe(2);
    few.source(bySeed(1), {}, () => createRequestSource(bySeed(1)));
    expect([few.hits, few.misses]).toEqual([0, 4]);
    few.source(bySeed(3), {}, () => createRequestSource(bySeed(3)));
    expect(few.hits).toBe(1);
    // One 60-request stream is some tens of kB: a bound below it keeps nothing, and still replays.
    const small = new WorkloadMemo({ maxBytes: 1000 });
    const got = read(small.source(bySeed(1), {}, () => createRequestSource(bySeed(1))));
    expect(small.size).toBe(0);
    expect(plain(got)).toEqual(plain(read(createRequestSource(bySeed(1)))));
  });

  it('a stream whose generation fails is not kept: the run meets the failure where a fresh stream would', () => {
    const s = spec();
    // A source that fails at its third request, as a spec drawing a request too long would.
    const failing = (): RequestSource => {
      const inner = createRequestSource(s);
      let n = 0;
      return {
        peekArrivalUs: () => inner.peekArrivalUs(),
        next: () => {
          if (++n === 3) throw new Error('request 2: too long');
          return inner.next();
        },
      };
    };
    const memo = new WorkloadMemo();
    const source = memo.source(s, {}, failing);
    expect([memo.size, memo.hits, memo.misses]).toEqual([0, 0, 0]);
    source.next();
    source.next();
    expect(() => source.next()).toThrow(/request 2: too long/);
  });

  it('any open-loop spec replays as generated (fast-check)', () => {
    fc.assert(
      fc.property(specArb({ maxRequests: 80 }), fc.integer({ min: 1, max: 64 }), (input, blockSizeTokens) => {
        const s = parseWorkloadSpec(input);
        fc.pre(isOpenLoopSpec(s) && s.num_requests !== undefined);
        const memo = new WorkloadMemo();
        const fresh = plain(read(createRequestSource(s, { blockSizeTokens })));
        expect(plain(read(memo.source(s, { blockSizeTokens }, () => createRequestSource(s, { blockSizeTokens }))))).toEqual(fresh);
        expect(plain(read(memo.source(s, { blockSizeTokens }, () => createRequestSource(s, { blockSizeTokens }))))).toEqual(fresh);
        expect(memo.hits).toBe(1);
      }),
      { numRuns: propertyRuns(40) },
    );
  });

  it('a run prepared with the memo gives, on a miss and on a hit, the result simulate() gives', () => {
    const input: SimulationConfigInput = {
      latencyModel: 'blackbox',
      numInstances: 3,
      totalKVBlocks: 400,
      routing: { policy: 'weighted', scorers: [{ name: 'prefix-affinity', weight: 1 }, { name: 'queue-depth', weight: 1 }] },
      workload: { kind: 'spec', spec: { version: '2', seed: 3, aggregate_rate: 80, num_requests: 120, clients: [{ id: 'a', rate_fraction: 1, prefix_group: 'p', prefix_length: 64, input_distribution: gaussian, output_distribution: constant(20) }] } },
    };
    const expected = JSON.stringify(simulate(input));
    const memo = new WorkloadMemo();
    const run = () => JSON.stringify(runPrepared(prepareValidated(SimulationConfigSchema.parse(input), {}, { workloads: memo })));
    expect(run()).toBe(expected);
    expect(run()).toBe(expected);
    expect([memo.misses, memo.hits]).toEqual([1, 1]);
  });
});

describe('exactKey', () => {
  it('is equal only for equal data', () => {
    expect(exactKey({ a: 1, b: ['x', null, true] })).toBe(exactKey({ a: 1, b: ['x', null, true] }));
    const distinct = [{ a: 1 }, { a: '1' }, { a: undefined }, {}, { a: 'n1' }, { a: [1] }, { a: 'u' }, { a: true }, { a: null }];
    const keys = distinct.map(exactKey);
    expect(new Set(keys).size).toBe(distinct.length);
    expect(exactKey({ a: 1, b: 2 })).not.toBe(exactKey({ b: 2, a: 1 }));
  });

  it('gives none for what JSON cannot state exactly, or a long text', () => {
    for (const v of [{ a: Number.NaN }, { a: -0 }, { a: new Map() }, { a: () => 1 }, { a: 1n }, { a: new Float64Array(2) }]) expect(exactKey(v)).toBeUndefined();
    expect(exactKey({ a: Number.POSITIVE_INFINITY })).not.toBe(exactKey({ a: null }));
    expect(exactKey({ a: 'x'.repeat(70_000) })).toBeUndefined();
  });
});
