import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RoutingRecord, analyzeTrace, estimateTokens, readTraceFile, summarizeTrace } from '@blis/trace';
import { describe, expect, it } from 'vitest';

// Decision tracing through the `blis` process: the issue's "done" command on a BLIS example
// spec, `--trace-level none` changing nothing, determinism, and bad trace flags exiting 2.

const ROOT = join(import.meta.dirname, '..', '..', '..');
const BIN = join(ROOT, 'packages', 'cli', 'bin', 'blis.js');
const SPEC = join(ROOT, 'examples', 'workloads', 'prefix-affinity-demo.yaml');
const BASE = ['run', '--model', 'meta-llama/llama-3.1-8b-instruct', '--workload-spec', SPEC, '--num-instances', '4', '--quiet'];
const tmp = mkdtempSync(join(tmpdir(), 'blis-tracing-cli-'));

function blis(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('blis run with decision tracing', () => {
  it('--trace-level none prints exactly what a run without tracing flags prints', () => {
    const plain = blis(...BASE, '--routing-policy', 'weighted');
    expect(plain.code, plain.stderr).toBe(0);
    const none = blis(...BASE, '--routing-policy', 'weighted', '--trace-level', 'none', '--summary-strategy', 'counterfactual', '--summary-max-tokens', '300');
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toBe(plain.stdout);
    expect(JSON.parse(plain.stdout)).not.toHaveProperty('anomalies');
  });

  it('runs the issue command: trace file, counterfactual top 3, anomalies and a grounded summary', () => {
    const out = join(tmp, 't.jsonl');
    const r = blis(...BASE, '--trace-level', 'decisions', '--counterfactual-k', '3', '--decision-trace', out, '--summarize-trace');
    expect(r.code, r.stderr).toBe(0);
    const res = JSON.parse(r.stdout);
    const records = [...readTraceFile(out)];
    const routes = records.filter((x): x is RoutingRecord => x.t === 'route');
    expect(routes).toHaveLength(res.injected_requests);
    for (const x of routes) {
      expect(x.topk).toHaveLength(3);
      expect(x.regret).toBeGreaterThanOrEqual(0);
    }
    expect(Object.keys(res.anomalies)).toEqual(['priority_inversion', 'hol_blocking', 'kv_thrashing', 'scale_oscillation', 'tail_latency_blowup']);
    expect(res.anomalies.tail_latency_blowup.threshold).toBe(5);
    // The summary in the result is the one the trace file alone yields.
    expect(res.trace_summary).toBe(summarizeTrace(analyzeTrace(records)));
    expect(estimateTokens(res.trace_summary)).toBeLessThanOrEqual(1000);
    expect(res.trace_summary).toContain(`${res.completed_requests} completed`);
  });

  it('is deterministic: same flags, same stdout and same trace file', () => {
    const a = join(tmp, 'a.jsonl');
    const b = join(tmp, 'b.jsonl');
    const flags = ['--routing-policy', 'round-robin', '--trace-level', 'full', '--counterfactual-k', '2', '--summarize-trace', '--summary-strategy', 'decision-audit'];
    const ra = blis(...BASE, ...flags, '--decision-trace', a);
    const rb = blis(...BASE, ...flags, '--decision-trace', b);
    expect(ra.code, ra.stderr).toBe(0);
    expect(rb.stdout).toBe(ra.stdout);
    expect(readFileSync(b, 'utf8')).toBe(readFileSync(a, 'utf8'));
    expect(readFileSync(a, 'utf8')).toContain('"t":"batch"');
    expect(JSON.parse(ra.stdout).trace_summary).toContain('## Decision audit');
  });

  it('summarizes without a trace level or file', () => {
    const r = blis(...BASE, '--summarize-trace', '--summary-max-tokens', '200');
    expect(r.code, r.stderr).toBe(0);
    const res = JSON.parse(r.stdout);
    expect(estimateTokens(res.trace_summary)).toBeLessThanOrEqual(200);
    expect(res.anomalies.priority_inversion.count).toBe(0);
  });

  it.each([
    [['--decision-trace', join(tmp, 'x.jsonl')], /--decision-trace: expected trace level decisions or full for a trace output file, found none/],
    [['--counterfactual-k', '3'], /--counterfactual-k: expected trace level decisions or full for counterfactual candidates, found none/],
    [['--trace-level', 'verbose'], /--trace-level/],
    [['--summarize-trace', '--summary-max-tokens', '50'], /--summary-max-tokens: expected number to be >=100, found 50/],
    [['--summarize-trace', '--summary-strategy', 'pattern-mining'], /--summary-strategy/],
    [['--trace-level', 'decisions', '--tail-ratio-threshold', '1'], /--tail-ratio-threshold: expected number to be >1, found 1/],
    [['--trace-level', 'decisions', '--decision-trace', join(tmp, 'missing-dir', 't.jsonl')], /--decision-trace: expected a writable file, found ENOENT/],
    // The decision trace's old flag: --trace-output is BLIS's workload export now.
    [['--trace-level', 'decisions', '--trace-output', join(tmp, 't')], /^blis: --trace-output: expected BLIS's workload export \(a TraceV2 <prefix>\.yaml \+ <prefix>\.csv\); the decision trace of --trace-level is written with --decision-trace <file> since this release, found --trace-output \S+ beside --trace-level decisions$/m],
  ])('rejects %j with exit 2 and nothing on stdout', (flags, message) => {
    const r = blis(...BASE, ...flags);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });
});
