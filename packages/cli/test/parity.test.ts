import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RequestRecord } from '@blis/cluster';
import { findCoefficients, resolveLatency } from '@blis/latency';
import { describe, expect, it } from 'vitest';
import {
  HEAD_PARITY_RUNS,
  PARITY_RUNS,
  REFERENCE,
  type RunComparison,
  cliArgs,
  compareRun,
  formatComparison,
  isExactMatch,
  loadReference,
  simulateRun,
} from './parity-compare.js';

// Issue 8: request-level parity with the Go BLIS on the azurecode2k reference runs, through
// the library and through the `blis replay` process. Every one of the 2,000 requests must match
// to the microsecond, and every field of the reference result.json as printed.

const ROOT = join(import.meta.dirname, '..', '..', '..');
const BIN = join(ROOT, 'packages', 'cli', 'bin', 'blis.js');
const tmp = mkdtempSync(join(tmpdir(), 'blis-parity-'));

function expectExact(c: RunComparison): void {
  // The formatted report names the fields and requests that differ when this fails.
  expect(isExactMatch(c), formatComparison(c)).toBe(true);
  expect(c.total).toBe(2000);
  expect(c.exact).toBe(2000);
}

describe('the reference configuration', () => {
  it('is the catalogue entry the README names: llama-3.1-8b-instruct on H100, TP 1, vLLM v0.11.0', () => {
    const entry = findCoefficients(REFERENCE.model, REFERENCE.hardware, REFERENCE.tp, REFERENCE.vllmVersion);
    expect(entry?.alpha).toEqual(REFERENCE.alpha);
    expect(entry?.beta).toEqual(REFERENCE.beta);
    // `--model` with `--latency-model blackbox` resolves to the same coefficients.
    const resolved = resolveLatency({ model: REFERENCE.model, latencyModel: 'blackbox' });
    expect(resolved.kind).toBe('blackbox');
    expect(resolved.alpha).toEqual(REFERENCE.alpha);
    expect(resolved.beta).toEqual(REFERENCE.beta);
  });

  it('reproduces the README examples: a lone 374-token prefill takes 13,876 µs, a lone decode 6,776 µs', () => {
    const m = resolveLatency({ model: REFERENCE.model, hardware: REFERENCE.hardware, tp: REFERENCE.tp, latencyModel: 'blackbox' }).model;
    const batch = (prefillTokens: number, decodeTokens: number) =>
      ({ prefillTokens, decodeTokens, prefillCount: prefillTokens > 0 ? 1 : 0, decodeCount: decodeTokens, prefillNewTokens: new Int32Array(1), prefillContextStart: new Int32Array(1), prefillInputTokens: new Int32Array(1), decodeContext: new Int32Array(1) }) as const;
    expect(m.stepTime(batch(374, 0))).toBe(13876);
    expect(m.stepTime(batch(0, 1))).toBe(6776);
    expect(m.queueingTime(4808)).toBe(10326);
    expect(m.outputTokenTime()).toBe(0);
  });
});

describe('BLIS HEAD roofline: request 0 of the trace', () => {
  it('takes 49,409 µs for its first 2,048-token chunk of 4,808 (its prefill alone at t = 0)', () => {
    const m = resolveLatency({ model: REFERENCE.model, hardware: REFERENCE.hardware, tp: REFERENCE.tp, latencyModel: 'roofline' }).model;
    const b = { prefillTokens: 2048, decodeTokens: 0, prefillCount: 1, decodeCount: 0, prefillNewTokens: Int32Array.of(2048), prefillContextStart: Int32Array.of(0), prefillInputTokens: Int32Array.of(4808), decodeContext: new Int32Array(1) };
    expect(m.stepTime(b)).toBe(49409);
    expect(m.queueingTime(4808)).toBe(0);
  });
});

describe.each([...PARITY_RUNS, ...HEAD_PARITY_RUNS])('parity with the Go BLIS: $name', (run) => {
  const reference = loadReference(run);

  it('matches every request and the aggregate result through simulate()', () => {
    const result = simulateRun(run);
    const c = compareRun(run.name, reference, result.requests ?? [], result, run.aggregate);
    expectExact(c);
    expect(result.preemption_count).toBe(0);
  });

  it('is deterministic: a second replay gives byte-identical JSON', () => {
    expect(JSON.stringify(simulateRun(run))).toBe(JSON.stringify(simulateRun(run)));
  });

  it('matches every request and the aggregate result through `blis replay`', () => {
    const resultsPath = join(tmp, `${run.name}.json`);
    const r = spawnSync(process.execPath, [BIN, ...cliArgs(run, resultsPath)], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    // stdout carries the aggregate result alone; the results file adds the per-request records.
    const stdout = JSON.parse(r.stdout) as Record<string, unknown>;
    const file = JSON.parse(readFileSync(resultsPath, 'utf8')) as Record<string, unknown> & { requests: RequestRecord[] };
    expect(stdout.requests).toBeUndefined();
    expectExact(compareRun(run.name, reference, file.requests, stdout, run.aggregate));
    expectExact(compareRun(run.name, reference, file.requests, file, run.aggregate));
  });
});

describe('the comparison itself', () => {
  const run = PARITY_RUNS[0];
  const reference = loadReference(run);
  const asRecords = (): RequestRecord[] =>
    reference.requests.map((q) => ({
      request_id: q.id,
      arrival_ms: Math.round(q.arrivalColumn * 1e6) / 1000,
      input_tokens: q.inputTokens,
      output_tokens: q.outputTokens,
      handled_by: q.handledBy,
      ttft_ms: q.ttftMs,
      itl_ms: q.itlMs,
      e2e_ms: q.e2eMs,
      scheduling_delay_ms: q.schedulingDelayMs,
      cache_hit_blocks: 0,
      preemptions: 0,
    }));

  it('accepts the reference against itself', () => {
    expectExact(compareRun(run.name, reference, asRecords(), reference.result));
  });

  it('reports a 1 µs difference, a moved request, a missing request and a changed aggregate', () => {
    const records = asRecords();
    records[10] = { ...records[10], ttft_ms: records[10].ttft_ms + 0.001 };
    records[11] = { ...records[11], handled_by: 'instance_9' };
    records[12] = { ...records[12], itl_ms: records[12].itl_ms * (1 + 1e-15) };
    records.splice(20, 1);
    const c = compareRun(run.name, reference, records, { ...reference.result, ttft_p99_ms: 1 });
    expect(isExactMatch(c)).toBe(false);
    expect(c.exact).toBe(2000 - 4);
    expect(c.fields.ttft).toMatchObject({ mismatches: 1, maxDiffUs: 1, worstId: reference.requests[10].id });
    expect(c.fields.instance.mismatches).toBe(1);
    expect(c.fields.itl.mismatches).toBe(1);
    expect(c.missing).toEqual([reference.requests[20].id]);
    expect(c.aggregateDiffs.map((d) => d.field)).toEqual(['ttft_p99_ms']);
    expect(formatComparison(c)).toMatch(/MISMATCH/);
  });
});
