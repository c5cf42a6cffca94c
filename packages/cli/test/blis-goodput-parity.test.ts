import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blis } from './blis-process.js';

// Issue 39: goodput from a spec's goodput_slo_targets, the per-class --slo-ttft/--slo-itl/--slo-e2e
// flags and a trace header's targets, against BLIS f90a1e3a's metrics files
// (fixtures/blis-head-goodput/README.md). Every aggregate field, goodput's among them, must be
// BLIS's, and in BLIS's order.

const FIXTURES = join(import.meta.dirname, 'fixtures', 'blis-head-goodput');
const tmp = mkdtempSync(join(tmpdir(), 'blis-goodput-'));

async function expectMetrics(args: string[], name: string): Promise<Record<string, unknown>> {
  const out = join(tmp, `${name}-m.json`);
  const r = await blis([...args, '--model', 'qwen/qwen3-14b', '--total-kv-blocks', '15909', '--metrics-path', out, '--quiet']);
  expect(r.code, r.stderr).toBe(0);
  const ours = JSON.parse(readFileSync(out, 'utf8'));
  delete ours.requests;
  const reference = JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8'));
  expect(Object.keys(ours)).toEqual(Object.keys(reference));
  expect(ours).toEqual(reference);
  return JSON.parse(r.stdout);
}

describe("goodput, against BLIS HEAD's runs", () => {
  it('spec targets for three classes, --slo-itl adding a dimension to one: the same per-class goodput', async () => {
    const result = await expectMetrics(['run', '--workload-spec', join(FIXTURES, 'goodput-classes.yaml'), '--slo-itl', 'standard=40ms'], 'classes');
    // The result JSON carries the same figures, and the thresholds applied.
    const reference = JSON.parse(readFileSync(join(FIXTURES, 'classes.json'), 'utf8'));
    expect(result.goodput).toEqual({
      goodput_rps: reference.goodput_rps,
      slo_attainment: reference.slo_attainment,
      per_class: reference.per_class,
      targets: {
        batch: { ttft_ms: 200, itl_ms: 30, e2e_ms: 8000 },
        critical: { ttft_ms: 60, itl_ms: 25, e2e_ms: 0 },
        standard: { ttft_ms: 0, itl_ms: 40, e2e_ms: 3000 },
      },
    });
  });

  it('clients without slo_class count under default (not standard), on 2 instances', async () => {
    await expectMetrics(['run', '--workload-spec', join(FIXTURES, 'goodput-default.yaml'), '--num-instances', '2', '--routing-policy', 'round-robin', '--slo-ttft', 'default=80ms,batch=1s'], 'default');
  });

  it("replay: the trace header's targets, overridden per dimension by --slo-e2e", async () => {
    await expectMetrics(['replay', '--trace-header', join(FIXTURES, 'classes-trace.yaml'), '--trace-data', join(FIXTURES, 'classes-trace.csv'), '--slo-e2e', 'critical=4s'], 'replay');
  });

  it('--trace-output writes the merged targets into the header, for a replay downstream', async () => {
    const prefix = join(tmp, 'exported');
    const r = await blis(['run', '--model', 'qwen/qwen3-14b', '--total-kv-blocks', '15909', '--workload-spec', join(FIXTURES, 'goodput-classes.yaml'), '--slo-itl', 'standard=40ms', '--trace-output', prefix, '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    const header = readFileSync(`${prefix}.yaml`, 'utf8');
    expect(header).toContain('goodput_slo_targets:\n  batch:\n    ttft_ms: 200\n    itl_ms: 30\n    e2e_ms: 8000\n  critical:\n    ttft_ms: 60\n    itl_ms: 25\n  standard:\n    itl_ms: 40\n    e2e_ms: 3000\n');
  });

  it('without targets: no goodput anywhere (the output is as before)', async () => {
    const out = join(tmp, 'none-m.json');
    const r = await blis(['run', '--model', 'qwen/qwen3-14b', '--total-kv-blocks', '15909', '--num-requests', '20', '--metrics-path', out, '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).goodput).toBeUndefined();
    const m = JSON.parse(readFileSync(out, 'utf8'));
    for (const k of ['goodput_rps', 'slo_attainment', 'per_class']) expect(m[k]).toBeUndefined();
  });
});
