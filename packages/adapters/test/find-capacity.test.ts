import type { SimulationConfigInput, SimulationResult } from '@blis/cluster';
import { describe, expect, it } from 'vitest';
import { CapacityInputError, type CapacityReport, type CapacityTarget, findCapacity } from '../src/index.js';
import { parseCapacitySettings } from '../src/internal.js';

// The known-by-construction case. One instance serving one request at a time (maxNumSeqs 1),
// blackbox latency with alpha = 0 and beta = (10, 990, 0) µs, every prompt 100 tokens and every
// answer 100 tokens, constant arrivals. A request's prefill step takes beta0 + beta1 × 100 =
// 10 + 99,000 = 99,010 µs and yields the first token; the other 99 tokens take one decode step
// each, beta0 + beta2 × 1 = 10 µs: 990 µs. Service time S = 100,000 µs, so μ = 1/S = 10 req/s.
// (The engine lets the next request start while the final 10 µs step runs, so the effective μ
// is 1e6 / 99,990 ≈ 10.001 req/s: 0.01 % off, far inside every tolerance below.)
// Below μ this is a D/D/1 queue that never queues: every E2E is exactly 100 ms. Above μ the
// k-th request waits k × (S − 1/λ); with 200 requests the p99 E2E crosses 150 ms once
// 0.99 × 199 × (100 ms − 1000/λ ms) > 50 ms, i.e. at λ* ≈ 10.025 req/s. So a target
// e2e_p99 ≤ 150 ms holds up to λ* ∈ [μ, 1.003 μ] and fails beyond.
const MU = 10;
const LAMBDA_STAR = 10.03;
const fixedLengths = {
  numRequests: 200,
  promptTokens: 100,
  promptTokensStdev: 0,
  promptTokensMin: 100,
  promptTokensMax: 100,
  outputTokens: 100,
  outputTokensStdev: 0,
  outputTokensMin: 100,
  outputTokensMax: 100,
  arrivalProcess: 'constant' as const,
};
const server = { latencyModel: 'blackbox' as const, alphaCoeffs: [0, 0, 0], betaCoeffs: [10, 990, 0], totalKVBlocks: 10_000, maxNumSeqs: 1 };
const known = (rate: number, numInstances = 1): SimulationConfigInput => ({ ...server, seed: 1, numInstances, workload: { kind: 'synthetic', rate, ...fixedLengths } });
const E2E_150: CapacityTarget[] = [{ metric: 'e2e', stat: 'p99', limitMs: 150 }];

function expectBracketsMu(r: CapacityReport, tolerance: number): void {
  expect(r.status).toBe('found');
  const { passing, failing } = r.bracket as { passing: number; failing: number };
  expect(passing).toBeLessThanOrEqual(LAMBDA_STAR);
  expect(failing).toBeGreaterThan(MU);
  expect(failing - passing).toBeLessThanOrEqual(tolerance * failing);
  expect(Math.abs((r.answer as number) - MU)).toBeLessThanOrEqual(tolerance * failing);
}

describe('findCapacity on a server whose capacity is known (μ = 10 req/s)', () => {
  it('a single request takes S = 100 ms end to end (the derivation above)', async () => {
    const r = await findCapacity({ config: known(1), search: 'rate', targets: E2E_150, maxRate: 1 });
    expect(r.probes[0].runs[0].checks[0].value_ms).toBe(100);
  });

  it.each([
    [3, 0.05],
    [40, 0.05],
    [10, 0.01],
  ])('rate search from %d req/s brackets μ within tolerance %d', async (start, tolerance) => {
    const r = await findCapacity({ config: known(start), search: 'rate', targets: E2E_150, tolerance, seeds: [1, 2] });
    expectBracketsMu(r, tolerance);
    expect(r.unit).toBe('req/s');
    expect(r.confidence.seeds_agree).toBe(true);
    // Every probe below the answer passed and every one above the failing end failed.
    for (const p of r.probes) expect(p.passed).toBe(p.value <= (r.answer as number));
  });

  it('the same search through a spec workload scales aggregate_rate to the same answer', async () => {
    const client = {
      id: 'c',
      slo_class: 'critical',
      rate_fraction: 1,
      arrival: { process: 'constant' },
      input_distribution: { type: 'constant', params: { value: 100 } },
      output_distribution: { type: 'constant', params: { value: 100 } },
    };
    const config: SimulationConfigInput = { ...server, workload: { kind: 'spec', spec: { version: '2', aggregate_rate: 4, num_requests: 200, clients: [client] } } };
    const r = await findCapacity({ config, search: 'rate', targets: [{ metric: 'e2e', stat: 'p99', limitMs: 150, sloClass: 'critical' }] });
    expect(r.varies).toBe('spec aggregate_rate');
    expectBracketsMu(r, 0.05);
  });

  it('instances search: 35 req/s round-robin needs ⌈35 / μ⌉ = 4 instances, from below and from above', async () => {
    for (const start of [1, 16]) {
      const r = await findCapacity({ config: known(35, start), search: 'instances', targets: E2E_150 });
      expect(r).toMatchObject({ status: 'found', answer: 4, unit: 'instances', bracket: { passing: 4, failing: 3 }, fixed: { rate: 35, unit: 'req/s' } });
    }
  });

  it('is deterministic: the same options give the same report', async () => {
    const opts = { config: known(6), search: 'rate' as const, targets: E2E_150, seeds: [3, 4] };
    expect(JSON.stringify(await findCapacity(opts))).toBe(JSON.stringify(await findCapacity(opts)));
  });
});

/** A fake run: E2E p99 is `e2e(value, seed)` where value is the rate or the instance count. */
function fake(e2e: (config: SimulationConfigInput) => number, completed = 100) {
  return (config: SimulationConfigInput): SimulationResult =>
    ({ injected_requests: 100, completed_requests: completed, e2e_p99_ms: e2e(config), per_slo_class: {} }) as unknown as SimulationResult;
}
const rateOf = (c: SimulationConfigInput) => (c.workload as { rate: number }).rate;

describe('findCapacity search logic (fake simulations)', () => {
  it('reports when even the lower bound fails', async () => {
    const r = await findCapacity({ config: known(8), search: 'rate', targets: E2E_150, minRate: 1, maxRate: 100 }, { simulate: fake(() => 1000) });
    expect(r).toMatchObject({ status: 'lower-bound-fails', answer: null, bracket: { passing: null, failing: 1 } });
    expect(r.probes.map((p) => p.value)).toEqual([8, 4, 2, 1]);
    expect(r.message).toMatch(/not even the minimum rate, 1 req\/s/);
  });

  it('reports when the upper bound passes', async () => {
    const r = await findCapacity({ config: known(8), search: 'rate', targets: E2E_150, maxRate: 50 }, { simulate: fake(() => 1) });
    expect(r).toMatchObject({ status: 'upper-bound-passes', answer: 50, bracket: { passing: 50, failing: null } });
    expect(r.probes.map((p) => p.value)).toEqual([8, 16, 32, 50]);
  });

  it('instances: the fewest allowed already pass, or even the most allowed fail', async () => {
    const pass = await findCapacity({ config: known(8, 4), search: 'instances', targets: E2E_150, minInstances: 2 }, { simulate: fake(() => 1) });
    expect(pass).toMatchObject({ status: 'lower-bound-passes', answer: 2 });
    const fail = await findCapacity({ config: known(8, 4), search: 'instances', targets: E2E_150, maxInstances: 10 }, { simulate: fake(() => 1000) });
    expect(fail).toMatchObject({ status: 'upper-bound-fails', answer: null, bracket: { passing: null, failing: 10 } });
    expect(fail.probes.map((p) => p.value)).toEqual([4, 8, 10]);
  });

  it('a probe passes only when every seed does, and disagreeing seeds produce the note', async () => {
    // Seed s meets the target up to rate 10 + s: the seeds disagree between 11 and 13.
    const sim = fake((c) => (rateOf(c) <= 10 + (c.seed as number) ? 100 : 200));
    const r = await findCapacity({ config: known(12), search: 'rate', targets: E2E_150, seeds: [1, 2, 3], tolerance: 0.01 }, { simulate: sim });
    expect(r.answer).toBeLessThanOrEqual(11);
    expect(r.answer).toBeGreaterThan(11 * 0.99 - 1e-9);
    expect(r.probes.find((p) => p.value === 12)).toMatchObject({ passed: false, seeds_passed: 2 });
    expect(r.confidence.seeds_agree).toBe(false);
    expect(r.confidence.disagreements).toContainEqual({ value: 12, seeds_passed: 2, seeds: 3 });
    expect(r.confidence.note).toContain('at 12 req/s 2 of 3 seeds met the targets');
  });

  it('a run that does not complete enough requests fails whatever its latency', async () => {
    const r = await findCapacity({ config: known(8), search: 'rate', targets: E2E_150, maxRate: 8 }, { simulate: fake(() => 1, 99) });
    expect(r.status).toBe('lower-bound-fails');
    expect(r.probes[0].runs[0]).toMatchObject({ completion: 0.99, completion_met: false, passed: false });
    const relaxed = await findCapacity({ config: known(8), search: 'rate', targets: E2E_150, maxRate: 8, minCompletion: 0.99 }, { simulate: fake(() => 1, 99) });
    expect(relaxed.status).toBe('upper-bound-passes');
  });

  it('scales a trace through timeScale (k × the recorded rate is timeScale 1/k)', async () => {
    const seen: number[] = [];
    const sim = fake((c) => {
      const ts = (c.workload as { timeScale: number }).timeScale;
      seen.push(ts);
      return 1 / ts <= 3 ? 100 : 200;
    });
    const config: SimulationConfigInput = { workload: { kind: 'trace', path: 'unused.csv', timeScale: 0.5 } };
    const r = await findCapacity({ config, search: 'rate', targets: E2E_150, tolerance: 0.01 }, { simulate: sim });
    expect(r.unit).toBe('x');
    expect(seen[0]).toBe(0.5);
    expect(r.answer).toBeLessThanOrEqual(3);
    expect(r.answer).toBeGreaterThan(2.96);
  });

  it('refuses a target on a class the workload never produces, and bad settings, naming them', async () => {
    await expect(findCapacity({ config: known(8), search: 'rate', targets: [{ metric: 'ttft', stat: 'p99', limitMs: 5, sloClass: 'batch' }] })).rejects.toThrow(
      /target batch:ttft_p99: expected an SLO class of the workload \(standard\)/,
    );
    const err = await findCapacity({ config: known(8), search: 'rate', targets: E2E_150, tolerance: 2, minInstances: 5, maxInstances: 2 }).catch((e) => e);
    expect(err).toBeInstanceOf(CapacityInputError);
    expect((err as CapacityInputError).issues.map((i) => i.where)).toEqual(['options.tolerance', 'options.minInstances']);
  });

  it('words bad settings through the zod translator, list positions in brackets', () => {
    const raw = { search: 'x', targets: [{ metric: 'itl', stat: 'p50', limitMs: -1, sloClass: 'a' }], seeds: [1, 1], bogus: 1 };
    expect(() => parseCapacitySettings(raw as never)).toThrow(
      [
        'options.search: expected one of "rate", "instances", found "x"',
        'options.targets[0].limitMs: expected a number > 0, found -1',
        'options.targets[0].stat: expected a metric an SLO class reports (ttft or e2e; per-class results have no itl), found itl_p50',
        'options.seeds: expected distinct seeds, found a list of 2 item(s)',
        'options.bogus: expected a known field, found unknown field "bogus"',
      ].join('\n'),
    );
  });
});
