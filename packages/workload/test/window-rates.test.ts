import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RequestSpec } from '@blis/engine';
import { type InputIssue, type WorkloadSpecInput, WorkloadSpecError, createRequestSource, loadWorkloadSpec, parseWorkloadSpec } from '@blis/workload';
import { windowRate } from '@blis/workload/internal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arrivalArb, drain } from '../src/testing/index.js';
import { propertyRuns } from '../../../tools/test-support/property-runs.js';

// BLIS's per-window form of WorkloadSpec v2 (ActiveWindow's trace_rate, arrival,
// input_distribution, output_distribution; sim/workload/generator.go generateRequestsForWindow).
// A window of rate r and length T draws ceil(r × T) gaps, rescales them to sum to T exactly and
// sends one request per running sum that falls inside [start, end): the last sum is the end
// itself, so a window sends ceil(r × T) − 1 requests, whatever the arrival process.

const constant = (value: number) => ({ type: 'constant' as const, params: { value } });
const S = 1_000_000;

type Client = NonNullable<WorkloadSpecInput['clients']>[number];
type Window = NonNullable<Client['lifecycle']>['windows'][number];

function client(id: string, windows: Window[] | undefined, extra: Partial<Client> = {}): Client {
  return { id, rate_fraction: 1, input_distribution: constant(10), output_distribution: constant(5), ...(windows !== undefined ? { lifecycle: { windows } } : {}), ...extra };
}

function run(spec: Partial<WorkloadSpecInput> & { clients: Client[] }): RequestSpec[] {
  return drain(createRequestSource(parseWorkloadSpec({ version: '2', seed: 11, aggregate_rate: 0, horizon: 1e12, ...spec })));
}

const inRange = (reqs: RequestSpec[], from: number, to: number) => reqs.filter((r) => r.arrivalUs >= from && r.arrivalUs < to);

describe('absolute rate mode (aggregate_rate: 0): a window’s trace_rate is its rate', () => {
  const step = [
    { start_us: 0, end_us: 10 * S, trace_rate: 10 },
    { start_us: 10 * S, end_us: 20 * S, trace_rate: 40 },
    { start_us: 20 * S, end_us: 30 * S, trace_rate: 10 },
  ];

  it('constant arrivals at 10, 40, then 10 req/s for 10 s each: 99 + 399 + 99 requests, evenly spaced', () => {
    const reqs = run({ clients: [client('a', step, { arrival: { process: 'constant' } })] });
    // 10 req/s × 10 s = 100 gaps: requests at 0.1 s, 0.2 s, ... 9.9 s (the 100th sum is 10 s, the
    // window's end, and is not sent). At 40 req/s, 400 gaps and 399 requests, 24,999 µs apart, as
    // BLIS HEAD places them (checked with its --trace-output): its constant gap is int64(1 / (40 /
    // 1e6)) = 24,999 µs (the quotient is 24999.999999999996 in float64), and rescaling 400 of them
    // to 10 s multiplies each by 1e7 / 9,999,600, which truncates back to 24,999; the last gap
    // takes the residual. At 10 req/s the same steps give 99,999 µs gaps that rescale to 100,000.
    expect([inRange(reqs, 0, 10 * S).length, inRange(reqs, 10 * S, 20 * S).length, inRange(reqs, 20 * S, 30 * S).length]).toEqual([99, 399, 99]);
    expect(reqs).toHaveLength(597);
    const expected = [
      ...Array.from({ length: 99 }, (_, k) => (k + 1) * 100_000),
      ...Array.from({ length: 399 }, (_, k) => 10 * S + (k + 1) * 24_999),
      ...Array.from({ length: 99 }, (_, k) => 20 * S + (k + 1) * 100_000),
    ];
    expect(reqs.map((r) => r.arrivalUs)).toEqual(expected);
  });

  it('poisson arrivals: the same counts (the gaps are rescaled to fill each window), irregular spacing', () => {
    const reqs = run({ clients: [client('a', step)] });
    expect([inRange(reqs, 0, 10 * S).length, inRange(reqs, 10 * S, 20 * S).length, inRange(reqs, 20 * S, 30 * S).length]).toEqual([99, 399, 99]);
    const gaps = reqs.slice(1, 99).map((r, i) => r.arrivalUs - reqs[i].arrivalUs);
    expect(new Set(gaps).size).toBeGreaterThan(50);
  });

  it('ceil: 2.5 req/s for 1 s draws 3 gaps, so 2 requests; trace_rate 0 sends nothing', () => {
    const reqs = run({
      clients: [client('a', [{ start_us: 0, end_us: S, trace_rate: 2.5 }], { arrival: { process: 'constant' } }), client('b', [{ start_us: 0, end_us: 5 * S, trace_rate: 0 }])],
    });
    expect(reqs.map((r) => [r.clientId, r.arrivalUs])).toEqual([
      ['a', 333_333],
      ['a', 666_666],
    ]);
  });

  it('each client has its own rate; overlapping windows of one client both send', () => {
    const reqs = run({
      clients: [
        client('a', [{ start_us: 0, end_us: 10 * S, trace_rate: 5 }], { arrival: { process: 'constant' } }),
        client('b', [
          { start_us: 0, end_us: 10 * S, trace_rate: 2 },
          { start_us: 5 * S, end_us: 10 * S, trace_rate: 2 },
        ]),
      ],
    });
    expect(reqs.filter((r) => r.clientId === 'a')).toHaveLength(49);
    expect(reqs.filter((r) => r.clientId === 'b')).toHaveLength(19 + 9);
    for (let i = 1; i < reqs.length; i++) expect(reqs[i].arrivalUs).toBeGreaterThanOrEqual(reqs[i - 1].arrivalUs);
  });

  it('the horizon cuts a window (its rate applies to what is left) and drops the windows after it', () => {
    const reqs = run({ horizon: 5 * S, clients: [client('a', step, { arrival: { process: 'constant' } })] });
    // [0, 5 s) at 10 req/s: 50 gaps of 100 ms, 49 requests; the windows from 10 s on start after the horizon.
    expect(reqs.map((r) => r.arrivalUs)).toEqual(Array.from({ length: 49 }, (_, k) => (k + 1) * 100_000));
  });

  it('num_requests keeps the first requests in time order', () => {
    const reqs = run({ num_requests: 150, clients: [client('a', step, { arrival: { process: 'constant' } })] });
    expect(reqs).toHaveLength(150);
    // The 51st request of the 40 req/s window, 24,999 µs apart (see above).
    expect(reqs.at(-1)?.arrivalUs).toBe(10 * S + 51 * 24_999);
  });

  it('same seed, same requests; another seed, other arrivals', () => {
    const clients = [client('a', step, { input_distribution: { type: 'exponential', params: { mean: 100 } } })];
    const a = run({ clients });
    expect(run({ clients })).toEqual(a);
    const b = run({ seed: 12, clients });
    expect(b).toHaveLength(a.length);
    expect(b.map((r) => r.arrivalUs)).not.toEqual(a.map((r) => r.arrivalUs));
  });
});

describe('proportional mode (aggregate_rate > 0): trace_rate is a weight among co-active windows', () => {
  it('shares aggregate_rate by the rates of the windows active at the same time', () => {
    // 0-10 s: a (weight 1) and b (weight 3) share 100 req/s: 25 and 75 req/s, 249 and 749 requests.
    // 20-30 s: c alone gets all 100 req/s: 999 requests. A window without trace_rate weighs its
    // client's rate_fraction: d (rate_fraction 4, 40-50 s) with e (trace_rate 1): 80 and 20 req/s.
    const reqs = run({
      aggregate_rate: 100,
      clients: [
        client('a', [{ start_us: 0, end_us: 10 * S, trace_rate: 1 }]),
        client('b', [{ start_us: 0, end_us: 10 * S, trace_rate: 3 }]),
        client('c', [{ start_us: 20 * S, end_us: 30 * S, trace_rate: 5 }]),
        client('d', [{ start_us: 40 * S, end_us: 50 * S }], { rate_fraction: 4 }),
        client('e', [{ start_us: 40 * S, end_us: 50 * S, trace_rate: 1 }]),
      ],
    });
    const count = (id: string) => reqs.filter((r) => r.clientId === id).length;
    expect(['a', 'b', 'c', 'd', 'e'].map(count)).toEqual([249, 749, 999, 799, 199]);
  });

  it('windowRate: BLIS’s computeProportionalRate cases, computed by hand', () => {
    const c = (id: string, windows: [number, number, number?][] | undefined, rate_fraction = 1) => ({
      ...parseWorkloadSpec({ version: '2', aggregate_rate: 1, num_requests: 1, clients: [client(id, undefined, { rate_fraction })] }).clients[0],
      lifecycle: windows === undefined ? undefined : { windows: windows.map(([s, e, r]) => ({ start_us: s * S, end_us: e * S, trace_rate: r })) },
    });
    // Three co-active windows of weights 15.2, 22.5, 5.3 share 150 req/s: 150 × 22.5 / 43 = 78.49.
    const three = [c('c2', [[0, 10, 15.2]]), c('c8', [[0, 10, 22.5]]), c('c20', [[0, 10, 5.3]])];
    expect(windowRate({ aggregate_rate: 150, clients: three }, three[1], three[1].lifecycle!.windows[0], 0, 10 * S)).toBeCloseTo((150 * 22.5) / 43, 10);
    // A client counts once, by its first overlapping window: A's 0-10 s (10), not its 20-30 s (20),
    // overlaps B's 5-25 s (30): 100 × 30 / (10 + 30) = 75.
    const two = [
      c('A', [
        [0, 10, 10],
        [20, 30, 20],
      ]),
      c('B', [[5, 25, 30]]),
    ];
    expect(windowRate({ aggregate_rate: 100, clients: two }, two[1], two[1].lifecycle!.windows[0], 5 * S, 25 * S)).toBe(75);
    // A client without windows adds its rate_fraction: 150 × 22.5 / (10 + 22.5) = 103.85.
    const mixed = [c('bg', undefined, 10), c('c8', [[0, 10, 22.5]])];
    expect(windowRate({ aggregate_rate: 150, clients: mixed }, mixed[1], mixed[1].lifecycle!.windows[0], 0, 10 * S)).toBeCloseTo(103.846, 3);
    // Nothing co-active with a non-zero rate: 0. Absolute mode: the trace_rate itself.
    const zero = [c('z', [[0, 10, 0]])];
    expect(windowRate({ aggregate_rate: 100, clients: zero }, zero[0], zero[0].lifecycle!.windows[0], 0, 10 * S)).toBe(0);
    expect(windowRate({ aggregate_rate: 0, clients: three }, three[1], three[1].lifecycle!.windows[0], 0, 10 * S)).toBe(22.5);
  });

  it('one override anywhere switches the spec to per-window generation; without any, windows only gate', () => {
    const windows = [{ start_us: 0, end_us: 10 * S }];
    const base = { aggregate_rate: 100, clients: [client('a', windows, { arrival: { process: 'constant' as const } }), client('b', [{ start_us: 20 * S, end_us: 30 * S }])] };
    // No override: each client sends aggregate × fraction / Σ fractions of the clients whose windows
    // overlap its own (BLIS's normalizeRateFractions). a's and b's do not overlap: a sends all
    // 100 req/s in its window, constant gaps of 10 ms from 10 ms on, 999 requests before 10 s.
    const gated = run(base);
    expect(inRange(gated, 0, 10 * S).map((r) => r.arrivalUs)).toEqual(Array.from({ length: 999 }, (_, k) => (k + 1) * 10_000));
    // An arrival override on b: each window now gets aggregate × own / Σ co-active = 100 req/s.
    const perWindow = run({ ...base, clients: [base.clients[0], client('b', [{ start_us: 20 * S, end_us: 30 * S, arrival: { process: 'constant' } }])] });
    expect(perWindow.filter((r) => r.clientId === 'a')).toHaveLength(999);
    expect(perWindow.filter((r) => r.clientId === 'b')).toHaveLength(999);
  });
});

describe('per-window arrival and length overrides', () => {
  it('a window’s distributions and arrival process replace the client’s inside it only', () => {
    const reqs = run({
      clients: [
        client('a', [
          { start_us: 0, end_us: 10 * S, trace_rate: 10 },
          { start_us: 10 * S, end_us: 20 * S, trace_rate: 10, arrival: { process: 'constant' }, input_distribution: constant(300), output_distribution: constant(7) },
        ]),
      ],
    });
    const first = inRange(reqs, 0, 10 * S);
    const second = inRange(reqs, 10 * S, 20 * S);
    expect(first.every((r) => r.inputTokens === 10 && r.outputTokens === 5)).toBe(true);
    expect(second.every((r) => r.inputTokens === 300 && r.outputTokens === 7)).toBe(true);
    expect(second.map((r) => r.arrivalUs)).toEqual(Array.from({ length: 99 }, (_, k) => 10 * S + (k + 1) * 100_000));
    expect(new Set(first.slice(1).map((r, i) => r.arrivalUs - first[i].arrivalUs)).size).toBeGreaterThan(50);
  });

  it('a session started in a window: round 0 takes the window’s lengths, follow-ups the client’s (BLIS blueprints)', () => {
    const reqs = run({
      clients: [
        client('chat', [{ start_us: 0, end_us: S, trace_rate: 2, input_distribution: constant(300), output_distribution: constant(7) }], {
          arrival: { process: 'constant' },
          reasoning: { multi_turn: { max_rounds: 3, think_time_us: 1000, context_growth: 'accumulate' } },
        }),
      ],
    });
    // 2 req/s × 1 s: 1 session (at 0.5 s), 3 rounds; each later round is the context plus a 10-token turn.
    expect(reqs.map((r) => [r.roundIndex, r.inputTokens, r.outputTokens])).toEqual([
      [0, 300, 7],
      [1, 300 + 7 + 10, 5],
      [2, 317 + 5 + 10, 5],
    ]);
    expect(reqs[0].arrivalUs).toBe(500_000);
  });
});

describe('property: per-window generation', () => {
  // 1-3 clients, each with 1-4 disjoint windows; absolute or proportional mode.
  const windowsArb = fc
    .array(fc.record({ gap: fc.integer({ min: 0, max: 3 * S }), length: fc.integer({ min: 1, max: 2 * S }), rate: fc.double({ min: 0, max: 40, noNaN: true }) }), { minLength: 1, maxLength: 4 })
    .map((ws) => {
      let t = 0;
      return ws.map(({ gap, length, rate }) => {
        const start = t + gap;
        t = start + length;
        return { start_us: start, end_us: t, trace_rate: rate };
      });
    });
  const specArb = fc.record({
    seed: fc.integer({ min: 0, max: 1e6 }),
    aggregate_rate: fc.oneof(fc.constant(0), fc.double({ min: 1, max: 60, noNaN: true })),
    clients: fc.array(fc.record({ windows: windowsArb, arrival: arrivalArb }), { minLength: 1, maxLength: 3 }),
  });

  it('arrivals lie in their client’s windows; constant arrivals: ceil(rate × duration) − 1 per window, within ±1 of rate × duration', () => {
    fc.assert(
      fc.property(specArb, (s) => {
        const spec = parseWorkloadSpec({
          version: '2',
          seed: s.seed,
          aggregate_rate: s.aggregate_rate,
          horizon: 1e12,
          clients: s.clients.map((c, i) => client(`c${i}`, c.windows, { arrival: i === 0 ? { process: 'constant' } : c.arrival })),
        });
        const reqs = drain(createRequestSource(spec));
        for (let i = 1; i < reqs.length; i++) expect(reqs[i].arrivalUs).toBeGreaterThanOrEqual(reqs[i - 1].arrivalUs);
        spec.clients.forEach((c, i) => {
          const mine = reqs.filter((r) => r.clientId === c.id);
          const windows = c.lifecycle!.windows;
          for (const r of mine) expect(windows.some((w) => r.arrivalUs >= w.start_us && r.arrivalUs < w.end_us)).toBe(true);
          if (i !== 0) return;
          for (const w of windows) {
            const rate = windowRate(spec, c, w, w.start_us, w.end_us);
            const expected = rate * ((w.end_us - w.start_us) / S);
            const n = inRange(mine, w.start_us, w.end_us).length;
            expect(n).toBe(Math.max(0, Math.ceil(expected) - 1));
            expect(Math.abs(n - expected)).toBeLessThanOrEqual(1);
          }
        });
      }),
      { numRuns: propertyRuns(80) },
    );
  });
});

describe('bad per-window input: file, line and field', () => {
  const dir = mkdtempSync(join(tmpdir(), 'blis-window-'));
  // Line numbers below are counted by hand in this text.
  const BASE = `version: "2"
aggregate_rate: 0
horizon: 30000000
clients:
  - id: a
    rate_fraction: 1
    input_distribution: {type: constant, params: {value: 10}}
    output_distribution: {type: constant, params: {value: 5}}
    lifecycle:
      windows:
        - {start_us: 0, end_us: 10000000, trace_rate: 10}
        - start_us: 10000000
          end_us: 20000000
          trace_rate: 40
`;
  function issuesOf(name: string, text: string): [string, InputIssue[]] {
    const path = join(dir, name);
    writeFileSync(path, text);
    try {
      loadWorkloadSpec(path);
    } catch (e) {
      expect(e).toBeInstanceOf(WorkloadSpecError);
      return [path, (e as WorkloadSpecError).issues];
    }
    throw new Error(`${name} loaded, but should have been rejected`);
  }

  it('the base spec loads', () => {
    const path = join(dir, 'ok.yaml');
    writeFileSync(path, BASE);
    expect(loadWorkloadSpec(path).clients[0].lifecycle?.windows[1].trace_rate).toBe(40);
  });

  it('negative trace_rate', () => {
    const [path, issues] = issuesOf('negative.yaml', BASE.replace('trace_rate: 40', 'trace_rate: -40'));
    expect(issues).toEqual([{ file: path, line: 14, field: 'clients[0].lifecycle.windows[1].trace_rate', expected: 'a number >= 0', found: '-40' }]);
  });

  it('aggregate_rate 0 and a window without trace_rate (BLIS refuses it too)', () => {
    const [path, issues] = issuesOf('no-rate.yaml', BASE.replace('          trace_rate: 40\n', ''));
    expect(issues).toEqual([
      { file: path, line: 12, field: 'clients[0].lifecycle.windows[1].trace_rate', expected: 'a trace_rate in requests/s (aggregate_rate is 0: absolute rate mode)', found: 'nothing (the field is missing)' },
    ]);
  });

  it('aggregate_rate 0 and a client without lifecycle windows', () => {
    const extra = '  - id: b\n    rate_fraction: 1\n    input_distribution: {type: constant, params: {value: 10}}\n    output_distribution: {type: constant, params: {value: 5}}\n';
    const [path, issues] = issuesOf('no-lifecycle.yaml', BASE + extra);
    expect(issues).toEqual([
      { file: path, line: 15, field: 'clients[1].lifecycle', expected: 'lifecycle windows, each with a trace_rate (aggregate_rate is 0: absolute rate mode)', found: 'nothing (the field is missing)' },
    ]);
  });

  it('a per-window key on a client (outside lifecycle windows) is an unknown field', () => {
    const [path, issues] = issuesOf('client-rate.yaml', BASE.replace('    rate_fraction: 1\n', '    rate_fraction: 1\n    trace_rate: 5\n'));
    expect(issues).toEqual([{ file: path, line: 7, field: 'clients[0].trace_rate', expected: 'a known field', found: 'unknown field "trace_rate"' }]);
  });

  it('proportional mode: overrides on one client and another client without windows (it would send nothing)', () => {
    const extra = '  - id: b\n    rate_fraction: 1\n    input_distribution: {type: constant, params: {value: 10}}\n    output_distribution: {type: constant, params: {value: 5}}\n';
    const [path, issues] = issuesOf('always-on.yaml', BASE.replace('aggregate_rate: 0', 'aggregate_rate: 50') + extra);
    expect(issues).toEqual([
      {
        file: path,
        line: 15,
        field: 'clients[1].lifecycle',
        expected: 'lifecycle windows (client "a" has per-window overrides, and then a client without windows sends nothing)',
        found: 'nothing (the field is missing)',
      },
    ]);
  });

  it('a window that ends at or before its start', () => {
    const [path, issues] = issuesOf('empty-window.yaml', BASE.replace('end_us: 20000000', 'end_us: 10000000'));
    expect(issues).toEqual([{ file: path, line: 13, field: 'clients[0].lifecycle.windows[1].end_us', expected: 'a number > start_us (10000000)', found: '10000000' }]);
  });

  it('a window distribution with min > max, and an unknown window arrival process', () => {
    const [path, issues] = issuesOf(
      'window-dist.yaml',
      BASE.replace(
        '          trace_rate: 40\n',
        '          trace_rate: 40\n          arrival: {process: uniform}\n          input_distribution: {type: exponential, params: {mean: 50, min: 90, max: 80}}\n',
      ),
    );
    expect(issues.map((i) => [i.line, i.field])).toEqual([[15, 'clients[0].lifecycle.windows[1].arrival.process']]);
    const [path2, issues2] = issuesOf(
      'window-minmax.yaml',
      BASE.replace('          trace_rate: 40\n', '          trace_rate: 40\n          input_distribution: {type: exponential, params: {mean: 50, min: 90, max: 80}}\n'),
    );
    expect(issues2).toEqual([{ file: path2, line: 15, field: 'clients[0].lifecycle.windows[1].input_distribution.params.min', expected: 'min <= max (80)', found: '90' }]);
    expect(path).not.toBe(path2);
  });

  it('a negative aggregate_rate', () => {
    const [path, issues] = issuesOf('negative-aggregate.yaml', BASE.replace('aggregate_rate: 0', 'aggregate_rate: -1'));
    expect(issues).toEqual([{ file: path, line: 2, field: 'aggregate_rate', expected: 'a number >= 0', found: '-1' }]);
  });
});
