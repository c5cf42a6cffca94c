import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AnomalyRecord,
  JsonlFileSink,
  type OutcomeRecord,
  type RoutingRecord,
  SUMMARY_STRATEGIES,
  type TraceRecord,
  TraceRecorder,
  analyzeTrace,
  estimateTokens,
  readTraceFile,
  summarizeTrace,
} from '@blis/trace';
import { describe, expect, it } from 'vitest';
import { buildCluster, hashesFor, spec } from './helpers.js';

// The reflection summary is grounded: the text computed live equals the text computed from the
// trace file alone, and its numbers match what this test recomputes from the raw records.

const tmp = mkdtempSync(join(tmpdir(), 'blis-trace-summary-'));

/** Three classes, shared prefixes, overload on 3 instances that each run 4 requests at once. */
const specs = Array.from({ length: 300 }, (_, i) => {
  const input = 200 + ((i * 131) % 700);
  const cls = ['critical', 'standard', 'batch'][Math.floor(i / 3) % 3];
  return spec(i, i * 5_000, input, 10 + ((i * 37) % 90), {
    id: `q${i}`,
    sloClass: cls,
    blockHashes: hashesFor(input, `g${i % 5}`, 10, `u${i}`),
  });
});

function run(strategyRuns = false) {
  const path = join(tmp, `summary-${strategyRuns ? 'b' : 'a'}.jsonl`);
  const recorder = new TraceRecorder({ level: 'decisions', counterfactualK: 3, sink: new JsonlFileSink(path), sloTtftUs: 150_000, policies: { routing: 'round-robin' } });
  const sim = buildCluster(specs, {
    instances: 3,
    maxNumSeqs: 4,
    routing: 'round-robin',
    priority: 'slo-class',
    scheduler: 'reverse-priority',
    setup: { observer: recorder },
  });
  sim.run();
  recorder.finish(sim.endUs);
  return { path, recorder };
}

const nearestRank = (values: number[], p: number) => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.max(1, Math.ceil((p / 100) * s.length)) - 1];
};
const ms = (us: number) => (us / 1000).toFixed(1);
const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)}%`;

describe('trace summary', () => {
  const { path, recorder } = run();
  const records: TraceRecord[] = [...readTraceFile(path)];

  it('is the same text whether computed live or from the trace file alone', () => {
    const offline = analyzeTrace(readTraceFile(path));
    for (const strategy of SUMMARY_STRATEGIES) {
      expect(summarizeTrace(offline, { strategy })).toBe(summarizeTrace(recorder.analyzer, { strategy }));
    }
    // And deterministic across runs.
    const again = run(true);
    expect(summarizeTrace(again.recorder.analyzer)).toBe(summarizeTrace(recorder.analyzer));
  });

  it('quotes numbers recomputed from the raw records', () => {
    const text = summarizeTrace(recorder.analyzer, { maxTokens: 1500 });
    const routes = records.filter((r): r is RoutingRecord => r.t === 'route');
    const done = records.filter((r): r is OutcomeRecord => r.t === 'outcome' && r.status === 'completed');
    const end = records.find((r) => r.t === 'end')!.ts;

    expect(text).toContain(`Run: ${records.filter((r) => r.t === 'admit').length} requests arrived, ${done.length} completed`);
    const tokens = done.reduce((n, o) => n + o.out!, 0);
    expect(text).toContain(`Throughput: ${(tokens / (end / 1e6)).toFixed(1)} output tokens/s, ${(done.length / (end / 1e6)).toFixed(1)} completed requests/s`);
    const all = done.map((o) => o.ttft_us!);
    expect(text).toContain(`TTFT p50 ${ms(nearestRank(all, 50))} ms, p99 ${ms(nearestRank(all, 99))} ms`);
    for (const cls of ['batch', 'critical', 'standard']) {
      const c = done.filter((o) => o.slo === cls);
      const met = c.filter((o) => o.slo_met === true).length;
      const t = c.map((o) => o.ttft_us!);
      expect(text).toContain(
        `Class ${cls}: ${c.length} completed, TTFT p50 ${ms(nearestRank(t, 50))} ms, p99 ${ms(nearestRank(t, 99))} ms; SLO met by ${met} of ${c.length} (${pct(met, c.length)}), missed by ${c.length - met}.`,
      );
    }
    const hit = done.reduce((n, o) => n + o.hit_blocks, 0);
    const blocks = done.reduce((n, o) => n + o.blocks, 0);
    expect(text).toContain(`Prefix cache: ${hit} of ${blocks} prompt blocks hit (${pct(hit, blocks)})`);

    const positive = routes.filter((r) => r.regret > 0);
    const meanRegret = routes.reduce((n, r) => n + r.regret, 0) / routes.length;
    const maxRegret = Math.max(...routes.map((r) => r.regret));
    expect(positive.length).toBeGreaterThan(0);
    expect(text).toContain(
      `${positive.length} of ${routes.length} decisions (${pct(positive.length, routes.length)}) did not pick the best-scored instance; mean regret ${meanRegret.toFixed(3)}, max ${maxRegret.toFixed(3)}.`,
    );
    const away = routes.filter((r) => Math.max(...r.snap.map((s) => s.pb)) > r.snap[r.inst].pb);
    expect(away.length).toBeGreaterThan(0);
    expect(text).toContain(`${away.length} of ${routes.length} decisions (${pct(away.length, routes.length)}) sent the request away`);

    const kinds = ['priority_inversion', 'hol_blocking', 'kv_thrashing', 'scale_oscillation', 'tail_latency_blowup'];
    const counts = kinds.map((k) => `${k} ${records.filter((r) => r.t === 'anomaly' && (r as AnomalyRecord).kind === k).length}`);
    expect(text).toContain(`Anomaly counters: ${counts.join(', ')}.`);
    const inv = records.find((r): r is AnomalyRecord => r.t === 'anomaly' && r.kind === 'priority_inversion')!;
    expect(inv).toBeDefined();
    expect(text).toContain(`e.g. ${inv.ids[0]} started before ${inv.ids[1]} on instance ${inv.inst} at t=${ms(inv.ts)} ms.`);

    // The worst decision by TTFT is the slowest completed request's routing decision.
    const slowest = [...done].sort((a, b) => b.ttft_us! - a.ttft_us!)[0];
    const route = routes.find((r) => r.id === slowest.id)!;
    expect(text).toContain(`1. t=${ms(route.ts)} ms | routed ${slowest.id} (${slowest.slo}, ${route.in} tokens, prefix 0x${route.prefix}) -> instance ${route.inst}`);
    expect(text).toContain(`Result: TTFT ${ms(slowest.ttft_us!)} ms, E2E ${ms(slowest.e2e_us!)} ms, ${slowest.hit_blocks} of ${slowest.blocks} prompt blocks hit`);
  });

  it('follows the trace: changing a record changes the summary', () => {
    const edited = records.map((r) => (r.t === 'outcome' && r.status === 'completed' ? { ...r, hit_blocks: 0 } : r));
    const a = summarizeTrace(analyzeTrace(edited));
    expect(a).not.toBe(summarizeTrace(recorder.analyzer));
    expect(a).toContain(`Prefix cache: 0 of `);
  });

  it('stays within the token budget, and the default lands in 500-1500 tokens', () => {
    for (const strategy of SUMMARY_STRATEGIES) {
      const full = summarizeTrace(recorder.analyzer, { strategy });
      expect(estimateTokens(full)).toBeLessThanOrEqual(1000);
      expect(estimateTokens(full)).toBeGreaterThanOrEqual(500);
      for (const maxTokens of [100, 250, 600]) {
        const s = summarizeTrace(recorder.analyzer, { strategy, maxTokens });
        expect(estimateTokens(s)).toBeLessThanOrEqual(maxTokens);
        expect(s.startsWith(`# Trace summary (${strategy})`)).toBe(true);
      }
    }
  });

  it('differs by strategy in what it dwells on', () => {
    const issue = summarizeTrace(recorder.analyzer, { strategy: 'issue-focused' });
    const audit = summarizeTrace(recorder.analyzer, { strategy: 'decision-audit' });
    const cf = summarizeTrace(recorder.analyzer, { strategy: 'counterfactual' });
    expect(issue).toContain('## Worst decisions');
    expect(audit).toMatch(/## Decision audit \(8 of 300 decisions, a deterministic sample\)/);
    expect(cf).toContain('## Highest-regret decisions (3)');
    const top = records.filter((r): r is RoutingRecord => r.t === 'route').sort((a, b) => b.regret - a.regret || a.seq - b.seq)[0];
    expect(cf).toContain(`${top.id} -> instance ${top.inst}`);
    expect(cf).toContain(`regret ${top.regret.toFixed(3)}`);
  });
});
