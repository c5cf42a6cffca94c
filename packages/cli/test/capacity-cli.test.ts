import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { blis, rejects } from './blis-process.js';

// `blis capacity` end to end on the server of packages/adapters/test/find-capacity.test.ts:
// one request at a time, prefill 99,010 µs + 99 decode steps of 10 µs = 100 ms a request, so
// μ = 10 req/s; an E2E p99 target of 150 ms holds up to ≈ 10.025 req/s (the derivation is there).

const tmp = mkdtempSync(join(tmpdir(), 'blis-capacity-cli-'));
const SERVER = ['--latency-model', 'blackbox', '--alpha-coeffs', '0,0,0', '--beta-coeffs', '10,990,0', '--total-kv-blocks', '10000', '--max-num-seqs', '1'];
const LENGTHS = ['--prompt-tokens', '100', '--prompt-tokens-stdev', '0', '--prompt-tokens-min', '100', '--prompt-tokens-max', '100'];
const OUTPUTS = ['--output-tokens', '100', '--output-tokens-stdev', '0', '--output-tokens-min', '100', '--output-tokens-max', '100'];
const KNOWN = ['capacity', ...SERVER, ...LENGTHS, ...OUTPUTS, '--arrival-process', 'constant', '--num-requests', '200'];

describe.concurrent('blis capacity', () => {
  it('rate search: one JSON report on stdout bracketing μ, one line per probe on stderr, the same bytes twice', async ({ expect }) => {
    const args = [...KNOWN, '--rate', '4', '--target', 'e2e_p99=150ms', '--seeds', '1,2'];
    const [a, b] = await Promise.all([blis(args), blis(args)]);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    const r = JSON.parse(a.stdout);
    expect(Object.keys(r)).toEqual(['search', 'status', 'answer', 'unit', 'message', 'bracket', 'tolerance', 'varies', 'fixed', 'bounds', 'targets', 'min_completion', 'seeds', 'probes', 'confidence']);
    expect(r).toMatchObject({ search: 'rate', status: 'found', unit: 'req/s', seeds: [1, 2], targets: [{ target: 'e2e_p99', limit_ms: 150, slo_class: null }] });
    expect(r.bracket.passing).toBeLessThanOrEqual(10.03);
    expect(r.bracket.failing).toBeGreaterThan(10);
    expect(r.bracket.failing - r.bracket.passing).toBeLessThanOrEqual(0.05 * r.bracket.failing);
    expect(r.probes[0]).toMatchObject({ index: 1, value: 4, passed: true, seeds_passed: 2 });
    expect(r.probes[0].runs[0]).toMatchObject({ seed: 1, injected_requests: 200, completed_requests: 200, checks: [{ target: 'e2e_p99', value_ms: 100, met: true }] });
    expect(r.confidence.note).toBe('all 2 seeds agreed at every probe');
    const lines = a.stderr.trim().split('\n');
    expect(lines).toHaveLength(r.probes.length + 1);
    expect(lines[0]).toBe('blis: probe 1: 4 req/s: pass (2/2 seeds met the targets)');
    expect(lines.at(-1)).toMatch(/^blis: [\d.]+ req\/s meets every target; [\d.]+ req\/s does not; all 2 seeds agreed/);
  });

  it('instances search at 35 req/s: 4 instances', async ({ expect }) => {
    const r = await blis([...KNOWN, '--rate', '35', '--search', 'instances', '--target', 'e2e_p99=150ms', '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({ search: 'instances', status: 'found', answer: 4, bracket: { passing: 4, failing: 3 } });
  });

  it('a stateful custom policy module is built afresh for every run: the same report as the built-in', async ({ expect }) => {
    const mod = join(tmp, 'rr.mjs');
    // Round robin for a run's 201 requests; a counter leaked from an earlier run would send
    // every request of the later ones to instance 0 instead.
    writeFileSync(mod, "export default () => { let i = 0; return { name: 'my-rr', route(_r, s) { const k = i++; return { instance: k < 201 ? k % s.instances.length : 0, reason: 'rr' }; } }; };\n");
    const args = [...KNOWN.map((a) => (a === '200' ? '201' : a)), '--rate', '35', '--search', 'instances', '--target', 'e2e_p99=150ms', '--seeds', '1,2', '--quiet'];
    const [custom, builtin] = await Promise.all([blis([...args, '--routing-policy', mod]), blis(args)]);
    expect(custom.code, custom.stderr).toBe(0);
    expect(custom.stdout).toBe(builtin.stdout);
    expect(JSON.parse(custom.stdout).answer).toBe(4);
  });

  it('a spec workload: per-class targets, aggregate_rate scaled', async ({ expect }) => {
    const spec = join(tmp, 'spec.yaml');
    writeFileSync(
      spec,
      [
        'version: "2"',
        'aggregate_rate: 5',
        'num_requests: 200',
        'clients:',
        '  - id: c',
        '    slo_class: critical',
        '    rate_fraction: 1',
        '    arrival: { process: constant }',
        '    input_distribution: { type: constant, params: { value: 100 } }',
        '    output_distribution: { type: constant, params: { value: 100 } }',
      ].join('\n'),
    );
    const r = await blis(['capacity', ...SERVER, '--workload-spec', spec, '--target', 'critical:e2e_p99=150ms', '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    const rep = JSON.parse(r.stdout);
    expect(rep).toMatchObject({ status: 'found', varies: 'spec aggregate_rate', targets: [{ target: 'critical:e2e_p99', slo_class: 'critical' }] });
    expect(rep.answer).toBeGreaterThan(9.5);
    expect(rep.answer).toBeLessThanOrEqual(10.03);
  });

  it('a trace: the rate is a multiple of the recorded one, scaled through --time-scale', async ({ expect }) => {
    const r = await blis(['capacity', '--trace', 'bench/traces/AzureLLMInferenceTrace_code.csv', '--max-requests', '60', '--target', 'ttft_p99=2s', '--max-rate', '4', '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    const rep = JSON.parse(r.stdout);
    expect(rep).toMatchObject({ unit: 'x', varies: 'trace timeScale (inverse)', bounds: { max: 4 } });
    expect(rep.probes[0].value).toBe(1);
  });
});

describe.concurrent('blis capacity: bad input (exit 2, nothing on stdout)', () => {
  const base = ['capacity', '--num-requests', '5', '--quiet'];
  it.for<readonly [readonly string[], string[]]>([
    [[], ['--target: expected the latency limits to meet, e.g. "ttft_p99=500ms,e2e_p95=30s", found nothing']],
    [
      ['--target', 'tpot_p99=1ms,ttft_p99=5,critical:ttft_p99=1s'],
      ['--target entry 1 "tpot_p99=1ms": expected a metric among ttft, e2e, itl, found "tpot"', '--target entry 2 "ttft_p99=5": expected a unit after the limit (us, ms, s, m), found "5" (no unit)'],
    ],
    [['--target', 'critical:ttft_p99=1s'], ['target critical:ttft_p99: expected an SLO class of the workload (standard), found "critical"']],
    [['--target', 'ttft_p99=1s', '--seeds', '1,x'], ['--seeds: expected comma-separated integers, e.g. "1,2,3", found "1,x"']],
    [['--target', 'ttft_p99=1s', '--seeds', '1,2', '--seed', '3'], ['--seeds: expected either --seed or --seeds, found both']],
    [['--target', 'ttft_p99=1s', '--tolerance', '1'], ['--tolerance: expected a number in (0, 1), found 1']],
    [['--target', 'ttft_p99=1s', '--min-rate', '5', '--max-rate', '2'], ['--min-rate: expected at most the maximum rate (2), found 5']],
    [['--target', 'ttft_p99=1s', '--search', 'both'], ['--search: expected one of rate, instances, found "both"']],
    [['--target', 'ttft_p99=1s', '--results-path', 'x.json'], ['--results-path: expected no per-run report flag with `blis capacity` (its output is the search\'s report), found "x.json"']],
    [['--target', 'ttft_p99=1s', '--time-scale', '2'], ['--time-scale: expected a trace beside it (--trace, or --trace-header with --trace-data), found no trace']],
  ])('%j', async ([args, lines], { expect }) => rejects(expect, [...base, ...args], ...lines));
});
