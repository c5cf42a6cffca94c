import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blis, rejects } from './blis-process.js';

// `blis calibrate --adapter-reference` against the reports BLIS f90a1e3a wrote for the same inputs
// (fixtures/blis-head-adapter-reference/README.md), and its bad inputs.

const FX = join(import.meta.dirname, 'fixtures', 'blis-head-adapter-reference');
const fx = (name: string) => join(FX, name);
const dir = mkdtempSync(join(tmpdir(), 'blis-adapter-ref-'));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const LLAMA = ['calibrate', '--adapter-reference', fx('llama-3.1-8b-instruct.dt.json'), '--sim-metrics', fx('llama-3.1-8b-instruct.blis-aware.json')];

describe('blis calibrate --adapter-reference: BLIS parity', () => {
  const cases = [
    { report: 'llama-3.1-8b-instruct.report.json', args: [...LLAMA, '--sim-metrics-blind', fx('llama-3.1-8b-instruct.blis-blind.json')] },
    { report: 'qwen-2.5-7b-instruct.report-t0.5.json', args: ['calibrate', '--adapter-reference', fx('qwen-2.5-7b-instruct.dt.json'), '--sim-metrics', fx('qwen-2.5-7b-instruct.blis-aware.json'), '--adapter-mape-threshold', '0.5'] },
    {
      report: 'qwen-2.5-7b-instruct.report-blind-t1.json',
      args: ['calibrate', '--adapter-reference', fx('qwen-2.5-7b-instruct.dt.json'), '--sim-metrics', fx('qwen-2.5-7b-instruct.blis-aware.json'), '--sim-metrics-blind', fx('qwen-2.5-7b-instruct.blis-blind.json'), '--adapter-mape-threshold', '1'],
    },
  ];
  for (const c of cases)
    it(`writes BLIS's report byte for byte: ${c.report}`, async () => {
      const out = join(dir, c.report);
      const r = await blis([...c.args, '--report', out]);
      expect(r.code, r.stderr).toBe(0);
      expect(readFileSync(out, 'utf8')).toBe(`${readFileSync(fx(c.report), 'utf8')}\n`);
    });

  it('prints each metric with its verdict, warns when one is over the bound, and exits 0 (1 with --fail-on-tolerance)', async () => {
    const out = join(dir, 'l.json');
    const r = await blis([...LLAMA, '--sim-metrics-blind', fx('llama-3.1-8b-instruct.blis-blind.json'), '--report', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        'adapter-reference comparison: llama-3.1-8b-instruct, MAPE threshold 20%',
        '  ttft        BLIS=310.99 DT=11224.79 MAPE=97.2% [EXCEEDS] delta-normalized MAPE=215.2%',
        '  throughput  BLIS=1175.32 DT=1027.28 MAPE=14.4% [WITHIN] delta-normalized MAPE=11.3%',
        '',
      ].join('\n'),
    );
    expect(r.stderr).toContain('blis: warning: ttft outside the 20% MAPE bound for llama-3.1-8b-instruct');
    const strict = await blis([...LLAMA, '--report', out, '--fail-on-tolerance']);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('--fail-on-tolerance: ttft MAPE above --adapter-mape-threshold 0.2');
    const loose = await blis([...LLAMA, '--report', out, '--fail-on-tolerance', '--adapter-mape-threshold', '1']);
    expect(loose.code, loose.stderr).toBe(0);
  });

  it('leaves out the delta-normalized error of a metric whose blind value is zero, and says so', async () => {
    const ref = file('zero-blind.json', JSON.stringify({ model: 'm', adapter_aware: { ttft: 200, output_throughput: 100 }, adapter_blind: { ttft: 0, output_throughput: 50 } }));
    // Aware: 100 ms and 1000 tokens / 10 s; blind: 50 ms and 1000 tokens / 8 s.
    const aware = file('aware.json', JSON.stringify({ ttft_mean_ms: 100, total_output_tokens: 1000, vllm_estimated_duration_s: 10 }));
    const blind = file('blind.json', JSON.stringify({ ttft_mean_ms: 50, total_output_tokens: 1000, vllm_estimated_duration_s: 8 }));
    const out = join(dir, 'z.json');
    const r = await blis(['calibrate', '--adapter-reference', ref, '--sim-metrics', aware, '--sim-metrics-blind', blind, '--report', out]);
    expect(r.code, r.stderr).toBe(0);
    const rep = JSON.parse(readFileSync(out, 'utf8'));
    // TTFT: |100 − 200| / 200 = 0.5, no delta (the DT's blind TTFT is 0). Throughput: 100 vs 100,
    // 0; ratios 100/125 = 0.8 against 100/50 = 2: |0.8 − 2| / 2 = 0.6.
    expect(rep.metrics).toEqual([
      { metric: 'ttft', dt_value: 200, blis_value: 100, mape: 0.5, within_threshold: false },
      { metric: 'throughput', dt_value: 100, blis_value: 100, mape: 0, within_threshold: true, delta_mape: 0.6 },
    ]);
    expect(r.stderr).toContain('blis: warning: delta-normalized ttft error skipped');
  });
});

describe('blis calibrate --adapter-reference: bad input', () => {
  const ref = fx('llama-3.1-8b-instruct.dt.json');
  const aware = fx('llama-3.1-8b-instruct.blis-aware.json');
  const out = join(dir, 'bad.json');

  it('needs --sim-metrics and --report', () => rejects(expect, ['calibrate', '--adapter-reference', ref], '--sim-metrics: expected a value (`blis calibrate --adapter-reference` requires it), found nothing', '--report: expected a value (`blis calibrate --adapter-reference` requires it), found nothing'));

  it('refuses the trace-grading flags', () =>
    rejects(
      expect,
      [...LLAMA, '--report', out, '--trace-header', 'h.yaml', '--warmup-requests', '3'],
      '--trace-header: expected no trace-grading flag with --adapter-reference (it compares --sim-metrics with the DT reference only), found "h.yaml"',
      '--warmup-requests: expected no trace-grading flag with --adapter-reference (it compares --sim-metrics with the DT reference only), found "3"',
    ));

  it('refuses --sim-metrics-blind and --adapter-mape-threshold without it', () =>
    rejects(
      expect,
      ['calibrate', '--trace-header', 'h', '--trace-data', 'd', '--sim-results', 's', '--report', out, '--sim-metrics-blind', aware, '--adapter-mape-threshold', '0.3'],
      /^blis: --sim-metrics-blind: expected this flag only with --adapter-reference, found "\/.*" \(\d+ characters\)$/,
      '--adapter-mape-threshold: expected this flag only with --adapter-reference, found "0.3"',
    ));

  for (const bad of ['0', '-0.1', 'x', 'Infinity'])
    it(`--adapter-mape-threshold ${bad}`, () => rejects(expect, [...LLAMA, '--report', out, '--adapter-mape-threshold', bad], `--adapter-mape-threshold: expected a number > 0 (a fraction: 0.2 is 20%), found "${bad}"`));

  it('a missing file', () => rejects(expect, [...LLAMA, '--report', out, '--sim-metrics-blind', join(dir, 'nope.json')], `--sim-metrics-blind ${join(dir, 'nope.json')}: expected a readable metrics JSON file, found ENOENT (no such file or directory)`));

  it('a DT reference without a positive aware TTFT', () => {
    const p = file('ref-bad.json', JSON.stringify({ model: 'm', adapter_aware: { ttft: 0, output_throughput: 5 } }));
    return rejects(expect, [...LLAMA.slice(0, 1), '--adapter-reference', p, '--sim-metrics', aware, '--report', out], `${p} adapter_aware.ttft: expected a positive number, found 0`);
  });

  it('a DT reference with a string throughput and no adapter_aware', async () => {
    const p = file('ref-bad2.json', JSON.stringify({ model: 'm', adapter_blind: { ttft: 1, output_throughput: '5' } }));
    await rejects(expect, ['calibrate', '--adapter-reference', p, '--sim-metrics', aware, '--report', out], `${p} adapter_aware: expected an object with ttft and output_throughput, found nothing (the field is missing)`, `${p} adapter_blind.output_throughput: expected a non-negative number, found "5"`);
  });

  it('a DT reference that is not JSON names its line', () => {
    const p = file('ref-syntax.json', '{\n  "model": "m",\n  "adapter_aware": {,\n}\n');
    return rejects(expect, ['calibrate', '--adapter-reference', p, '--sim-metrics', aware, '--report', out], `${p}:3: expected a DT reference JSON object (model, adapter_aware, adapter_blind): a property name in double quotes, or '}', found ",\\n}\\n" at column 21`);
  });

  it('metrics without a positive duration', () => {
    const p = file('m-bad.json', JSON.stringify({ ttft_mean_ms: 5, total_output_tokens: 10, vllm_estimated_duration_s: 0 }));
    return rejects(expect, ['calibrate', '--adapter-reference', ref, '--sim-metrics', p, '--report', out], `${p} vllm_estimated_duration_s: expected a positive number, found 0`);
  });

  it('metrics without ttft_mean_ms', () => {
    const p = file('m-bad2.json', JSON.stringify({ total_output_tokens: 10.5, vllm_estimated_duration_s: 3 }));
    return rejects(expect, ['calibrate', '--adapter-reference', ref, '--sim-metrics', aware, '--sim-metrics-blind', p, '--report', out], `${p} ttft_mean_ms: expected a non-negative number, found nothing (the field is missing)`, `${p} total_output_tokens: expected a non-negative integer, found 10.5`);
  });
});
